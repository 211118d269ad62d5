"""`kernelbounds certificates --list / --path NAME / --check` and `check NAME` resolving a
shipped certificate: from any working folder, one line per answer, documented exit codes."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from kernelbounds.release import workflow

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_list_and_path_name_the_shipped_files_from_an_empty_folder(tmp_path):
    listed = run("certificates", "--list", cwd=tmp_path)
    committed = sorted(p.name for p in (ROOT / "certificates").glob("*.json"))
    assert listed.returncode == 0 and listed.stdout.split() == committed
    r = run("certificates", "--path", "witness-m24-n3-r8", cwd=tmp_path)
    assert r.returncode == 0 and Path(r.stdout.strip()).read_bytes() == (ROOT / "certificates" / "witness-m24-n3-r8.json").read_bytes()
    bad = run("certificates", "--path", "no-such\x1b[2J.json", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1 and "\x1b" not in bad.stderr and "not a shipped certificate" in bad.stderr
    both = run("certificates", "--list", "--check", cwd=tmp_path)
    assert both.returncode == 2 and len(both.stderr.splitlines()) == 1


def test_check_resolves_a_shipped_name_and_says_so(tmp_path):
    r = run("check", "certificates/witness-m24-n3-r8.json", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("VALID ") and "r >= 8" in r.stdout
    assert "using the shipped certificate" in r.stderr and len(r.stderr.splitlines()) == 1
    missing = run("check", "nothing-like-this.json", cwd=tmp_path)
    assert missing.returncode == 2 and "cannot read the file" in missing.stdout


def test_check_mode_prints_one_summary_and_only_the_rejected_files(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    names = ["construction-tensor-m03-n3.json", "construction-tensor-m04-n3.json"]
    for name in [*names, "COMPUTED"]:
        shutil.copy(ROOT / "certificates" / name, folder / name)
    workflow.reindex(folder, jobs=1)
    good = run("certificates", "--check", str(folder), "--jobs", "2", cwd=tmp_path)
    assert good.returncode == 0 and len(good.stdout.splitlines()) == 1 and "2 certificates checked" in good.stdout and "2 valid, 0 rejected" in good.stdout
    verbose = run("certificates", "--check", str(folder), "-v", cwd=tmp_path)
    assert verbose.returncode == 0 and [line.split(":")[0] for line in verbose.stdout.splitlines()[:-1]] == [f"VALID {folder / name}" for name in names]
    doc = json.loads((folder / names[1]).read_text())
    doc["claims"]["kernel_rank"] += 1
    (folder / names[1]).write_text(json.dumps(doc))
    bad = run("certificates", "--check", str(folder), cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout.count(names[1]) == 1 and names[0] not in bad.stdout and "INDEX DIFFERS" in bad.stdout
    rows = [json.loads(line) for line in run("certificates", "--check", str(folder), "--json", cwd=tmp_path).stdout.splitlines()]
    assert [r["ok"] for r in rows[:-1]] == [True, False] and rows[-1]["rejected"] == [names[1]] and rows[-1]["index_matches"] is False
    assert run("certificates", "--check", str(tmp_path / "nope"), cwd=tmp_path).returncode == 2
