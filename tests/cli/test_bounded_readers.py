"""Every file `certificates --check DIR` reads goes through the checker's bounded reader
(kernelbounds.checker.read_input: regular files only, at most max_file_bytes + 1 bytes):
a 3 GB file in the folder is one line naming it, never read whole (no MemoryError, exit 4)."""

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMALL = "construction-softmax-m02-n3.json"
ADDRESS_SPACE = 3 * 2**29  # 1.5 GiB: the interpreter and its imports fit, a 3 GB read does not


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERNELBOUNDS_CACHE="off")
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env, preexec_fn=_limited)


def _folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(ROOT / "certificates" / SMALL, folder / SMALL)
    with open(folder / name, "wb") as fh:  # sparse: 3 GB stated, nothing written
        fh.truncate(3 * 10**9)
    return folder


def test_a_3_gb_certificate_is_one_line_naming_it_and_the_others_are_checked(tmp_path):
    folder = _folder(tmp_path, "huge.json")
    done = _run("certificates", "--check", str(folder), "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr and "MemoryError" not in done.stdout + done.stderr
    named = [line for line in done.stdout.splitlines() if "huge.json" in line]
    assert len(named) == 1 and named[0].startswith("RESOURCE LIMIT") and "more than max_file_bytes" in named[0]
    assert "2 certificates checked" in done.stdout and "1 valid, 1 rejected" in done.stdout


def test_a_3_gb_index_is_reported_as_differing_not_read(tmp_path):
    folder = _folder(tmp_path, "INDEX")
    done = _run("certificates", "--check", str(folder), "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "1 valid, 0 rejected; INDEX DIFFERS" in done.stdout


def test_a_fifo_in_the_folder_is_named_not_skipped(tmp_path):
    """A FIFO named *.json is listed (release.shipped.names lists every non-folder entry) and
    refused by the bounded reader without blocking: MALFORMED naming it, exit 1."""
    shutil.copy(ROOT / "certificates" / SMALL, tmp_path / SMALL)
    os.mkfifo(tmp_path / "fifo.json")
    r = _run("certificates", "--check", str(tmp_path), "--jobs", "1", cwd=tmp_path)
    assert r.returncode == 1, r
    assert f"MALFORMED {tmp_path / 'fifo.json'}: at /: refusing to read a FIFO" in r.stdout, r.stdout
