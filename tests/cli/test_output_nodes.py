"""Output targets that are not regular files: a device, a FIFO or a symlink is written in
place and never replaced by a regular file; a full device is one line and exit 2
(docs/cli.md, "Output files")."""

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kernelbounds.certificate import written_through

ROOT = Path(__file__).resolve().parents[2]


def run(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def _is(path, test) -> bool:
    return test(os.lstat(path).st_mode)


def _copy_of_device(tmp_path, name: str) -> Path:
    """A character device node with the numbers of /dev/NAME, made in tmp_path (as root)."""
    node = tmp_path / name
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.stat(f"/dev/{name}").st_rdev)
    except PermissionError:
        pytest.skip("making a device node needs root")
    return node


def test_a_device_copy_is_written_through_and_stays_a_device(tmp_path):
    null = _copy_of_device(tmp_path, "null")
    assert written_through(null) and not written_through(tmp_path / "new.json")
    r = run("construct", "rank1", "--m", "2", "--n", "2", "-o", str(null))
    assert r.returncode == 0, r.stderr
    assert _is(null, stat.S_ISCHR)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary file left beside it


@pytest.mark.parametrize("flag", ["-o", "--upper-output"])
def test_a_full_device_is_one_line_and_exit_2_and_stays_a_device(tmp_path, flag):
    full = _copy_of_device(tmp_path, "full")
    r = run("bound", "--m", "6", "--n", "3", flag, str(full))
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and "No space left on device" in r.stderr
    assert _is(full, stat.S_ISCHR)


def test_the_real_dev_null_and_dev_full_keep_their_nodes():
    """Only after the copies above pass (written_through must see them as devices)."""
    assert written_through("/dev/null") and written_through("/dev/full")
    r = run("bound", "--m", "6", "--n", "3", "-o", "/dev/null", "--upper-output", "/dev/null")
    assert r.returncode == 0, r.stderr
    r = run("construct", "tensor", "--m", "2", "--n", "3", "-o", "/dev/full")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert _is("/dev/null", stat.S_ISCHR) and _is("/dev/full", stat.S_ISCHR)


def test_dev_stdout_writes_to_standard_output():
    r = run("construct", "rank1", "--m", "2", "--n", "2", "-o", "/dev/stdout")
    assert r.returncode == 0 and '"kind": "construction"' in r.stdout
    assert _is("/dev/stdout", stat.S_ISLNK)


def _read_fifo(path: Path, out: list) -> threading.Thread:
    def reader():
        with open(path, "rb") as fh:
            out.append(fh.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    return t


def test_a_fifo_receives_the_certificate_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list = []
    t = _read_fifo(fifo, got)
    r = run("construct", "rank1", "--m", "2", "--n", "2", "-o", str(fifo), timeout=60)
    t.join(30)
    assert r.returncode == 0, r.stderr
    plain = run("construct", "rank1", "--m", "2", "--n", "2")
    assert got == [plain.stdout.encode()]
    assert _is(fifo, stat.S_ISFIFO)


@pytest.mark.parametrize("command", [
    ("construct", "rank1", "--m", "2", "--n", "2", "-o"),
    ("bound", "--m", "6", "--n", "3", "--upper-output"),
    ("refute", "--m", "5", "--rank", "2", "-o"),
    ("table", "--m", "4..5", "--n", "3..3", "--plot"),
])
def test_a_symlink_is_kept_and_its_target_gets_the_bytes(tmp_path, command):
    suffix = ".png" if command[0] == "table" else ".json"
    real, link = tmp_path / f"real{suffix}", tmp_path / f"link{suffix}"
    real.write_text("old")
    link.symlink_to(real.name)
    r = run(*command, str(link))
    assert r.returncode == 0, r.stderr
    assert _is(link, stat.S_ISLNK) and os.readlink(link) == real.name
    data = real.read_bytes()
    assert data.startswith(b"\x89PNG" if command[0] == "table" else b'{\n "')
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([real.name, link.name])


def test_a_regular_file_is_still_replaced_by_a_new_node(tmp_path):
    out = tmp_path / "c.json"
    out.write_text("old")
    before = os.stat(out).st_ino
    r = run("construct", "rank1", "--m", "2", "--n", "2", "-o", str(out))
    assert r.returncode == 0 and _is(out, stat.S_ISREG)
    assert os.stat(out).st_ino != before and out.read_text().startswith("{")


def test_a_folder_as_target_is_one_line_and_exit_2(tmp_path):
    r = run("construct", "rank1", "--m", "2", "--n", "2", "-o", str(tmp_path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and tmp_path.is_dir()


def test_a_fifo_without_a_reader_is_one_line_and_exit_2_not_a_hang(tmp_path):
    """Opening a FIFO that nobody reads, to write, waits forever: the writer refuses it at once."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = run("transcript", "--q", "2", "--s", "2", "-o", str(fifo), timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "no reader" in r.stderr
    assert _is(fifo, stat.S_ISFIFO)


def test_write_atomic_refuses_a_fifo_without_a_reader_through_a_symlink(tmp_path):
    from kernelbounds.certificate import write_atomic
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link.json"
    os.symlink(fifo, link)
    done: list = []

    def write():
        try:
            write_atomic(link, "{}\n")
            done.append("written")
        except OSError as exc:
            done.append(exc)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    t.join(10)
    if t.is_alive():  # unblock the writer so the test process can end, then fail
        with open(fifo, "rb") as fh:
            fh.read()
        pytest.fail("write_atomic blocked on a FIFO without a reader")
    assert isinstance(done[0], OSError) and "no reader" in str(done[0])
    assert _is(link, stat.S_ISLNK) and _is(fifo, stat.S_ISFIFO)
