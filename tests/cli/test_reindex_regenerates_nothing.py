"""`certificates DIR --reindex` checks the files present and rewrites INDEX (and COMPUTED's
code descriptions) without regenerating anything (docs/cli.md, "certificates"): a folder
without COMPUTED is refused at once (exit 2), never answered by rebuilding COMPUTED."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
FILES = ["refutation-causal-m05-n3-r2.json", "lower-position-independent-m24-n3.json"]


def run(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def test_a_folder_without_computed_is_refused_at_once(tmp_path):
    for name in FILES:
        shutil.copy(CERTS / name, tmp_path / name)
    start = time.monotonic()
    r = run("certificates", str(tmp_path), "--reindex", timeout=60)  # regenerating COMPUTED took minutes
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "COMPUTED" in r.stderr and "regenerates nothing" in r.stderr
    assert time.monotonic() - start < 60
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FILES)  # neither COMPUTED nor INDEX written


def test_with_computed_the_cells_are_kept_and_the_index_lists_the_files_present(tmp_path):
    for name in [*FILES, "COMPUTED"]:
        shutil.copy(CERTS / name, tmp_path / name)
    r = run("certificates", str(tmp_path), "--reindex")
    assert r.returncode == 0, r.stderr
    old, new = json.loads((CERTS / "COMPUTED").read_text()), json.loads((tmp_path / "COMPUTED").read_text())
    assert (new["cells"], new["chains"]) == (old["cells"], old["chains"])
    index = (tmp_path / "INDEX").read_text()
    assert all(name in index for name in FILES) and (CERTS / "refutation-causal-m06-n3-r3.json").is_file() and "refutation-causal-m06-n3-r3.json" not in index
