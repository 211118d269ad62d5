"""The command line: exit codes, one-line errors, atomic output, reproducible certificates."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kernelbounds.release import catalog, workflow
from kernelbounds.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_construct_then_check(tmp_path):
    out = tmp_path / "t.json"
    assert main(["construct", "tensor", "--m", "6", "--n", "3", "-o", str(out)]) == 0
    assert main(["check", str(out)]) == 0
    doc = json.loads(out.read_text())
    doc["head"]["kernel"]["f1"][0] = "1/6"
    out.write_text(json.dumps(doc))
    r = run("check", str(out))
    assert r.returncode == 1 and "at /head/kernel: not level-determined: <f(1), g(0)> = 29/30" in r.stdout and "Traceback" not in r.stderr


def test_construct_is_deterministic(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        assert main(["construct", "softmax", "--m", "5", "--n", "4", "-o", str(path)]) == 0
    assert a.read_bytes() == b.read_bytes()


def test_construct_refuses_a_false_claim(tmp_path):
    out = tmp_path / "u1.json"
    r = run("construct", "rank1", "--m", "3", "--n", "3", "-o", str(out))
    assert r.returncode == 1 and "does not solve length 3" in r.stderr and not out.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["construct", "tensor", "--m", "0", "--n", "3"],
        ["construct", "tensor", "--m", "x", "--n", "3"],
        ["construct", "lattice", "--m", "3", "--n", "3"],
        ["check"],
        ["check", "--limit", "bogus=1", "certificates/construction-tensor-m01-n3.json"],
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args):
    r = run(*args, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_unwritable_output_and_missing_input(tmp_path):
    r = run("construct", "tensor", "--m", "3", "--n", "3", "-o", str(tmp_path / "no" / "such" / "dir.json"))
    assert r.returncode == 2 and "cannot write" in r.stderr and "Traceback" not in r.stderr
    r = run("check", str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "cannot read" in r.stdout


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    from kernelbounds import certificate as cert

    out = tmp_path / "keep.json"
    out.write_text("old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(cert.os, "fsync", boom)
    with pytest.raises(OSError):
        cert.write_atomic(out, "new content")
    assert out.read_text() == "old" and sorted(os.listdir(tmp_path)) == ["keep.json"]


def test_several_files_exit_with_the_most_severe_code(tmp_path):
    good = ROOT / "certificates" / "construction-tensor-m03-n3.json"
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["check", str(good), str(bad)]) == 2


def test_the_catalog_workflow_does_not_depend_on_the_number_of_jobs(tmp_path, monkeypatch):
    """compare() and write() give the same rows and bytes with 1 or 2 worker processes;
    a changed committed file is reported, an extra one too."""
    few = [e for e in catalog.entries() if e.filename.startswith("construction-") and e.filename.endswith(("-m02-n3.json", "-m03-n4.json"))]
    monkeypatch.setattr(catalog, "entries", lambda: few)
    monkeypatch.setattr(workflow.stored, "build", lambda files, jobs=None, scheduler=None: {"stored": sorted(files)})  # the code search of every m: minutes
    written = workflow.write(tmp_path / "a", jobs=1), workflow.write(tmp_path / "b", jobs=2)
    assert [len(w.rows) for w in written] == [len(few), len(few)] == [4, 4]
    assert all((tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes() for name in [e.filename for e in few] + [workflow.index.INDEX])
    assert [e["name"] for e in json.loads((tmp_path / "a" / "INDEX").read_text())["certificates"]] == sorted(e.filename for e in few)
    (tmp_path / "a" / few[0].filename).write_text("{}")
    (tmp_path / "a" / "stale.json").write_text("{}")
    one, two = workflow.compare(tmp_path / "a", jobs=1), workflow.compare(tmp_path / "a", jobs=2)
    assert [(r.filename, r.same, r.verdict.code, r.verdict.summary) for r in one.rows] == [(r.filename, r.same, r.verdict.code, r.verdict.summary) for r in two.rows]
    assert [r.same for r in one.rows] == [False, True, True, True] and one.extra == ["stale.json"] and one.problems == 2
    assert workflow.compare(tmp_path / "b", jobs=2).ok


@pytest.mark.parametrize(
    "args",
    [
        ["bound", "--m", "12", "--n", "3", "-o", "{bad}"],
        ["witness", "--m", "12", "--n", "3", "--target-rank", "3", "-o", "{bad}"],
        ["table", "--m", "4..5", "--n", "3..3", "--plot", "{bad}.png"],
        ["rank", "--kernel", "inner", "--m", "4", "-o", "{bad}"],
        ["transcript", "--q", "2", "--s", "1", "-o", "{bad}"],
        ["construct", "softmax", "--m", "2", "--n", "3", "-o", "{bad}"],
    ],
)
def test_unwritable_outputs_give_one_line(args, tmp_path):
    bad = str(tmp_path / "missing-dir" / "out.file")
    r = run(*[a.replace("{bad}", bad) for a in args])
    assert r.returncode == 2 and "cannot write" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "missing-dir").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["bound", "--m", "12", "--n", "0"],
        ["table", "--m", "9..4"],
        ["rank", "--kernel", "level", "--m", "3"],
        ["rank", "--kernel", "level", "--m", "3", "--h", "1,2"],
        ["rank", "--kernel", "level", "--m", "2", "--h", "1,x,3"],
        ["transcript", "--q", "20", "--s", "9"],
        ["witness", "--m", "12", "--n", "3"],
    ],
)
def test_bad_requests_give_one_line(args):
    r = run(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_bound_json_keys_and_witness(tmp_path):
    r = run("bound", "--m", "24", "--n", "3", "--json", "-o", str(tmp_path / "lb.json"))
    doc = json.loads(r.stdout)
    assert {"m", "n", "lower", "upper", "code", "min_product", "k", "witness_inputs"} <= doc.keys()
    assert doc["upper"] == 14_951 and doc["lower"] >= 8  # the committed prefix-search file (THEORY U4')
    assert main(["check", str(tmp_path / "lb.json")]) == 0
    assert main(["witness", "--m", "24", "--n", "3", "--target-rank", "8", "-o", str(tmp_path / "w.json")]) == 0
    assert len(json.loads((tmp_path / "w.json").read_text())["witness"]["inputs"]) <= 190


def test_a_witness_family_over_the_checker_limits_is_refused_before_it_is_built(tmp_path, capsys):
    """502,500 inputs of length 64 would list about 0.9 GB: exit 3, one line, no file; the
    API's certificate refuses the same way; under the limits the file is written."""
    import kernelbounds as kb

    out = tmp_path / "w.json"
    assert main(["witness", "--m", "24", "--n", "64", "--target-rank", "500", "-o", str(out)]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "502500 inputs" in err and not out.exists()
    w = kb.witness(24, 64, 500)
    with pytest.raises(ValueError, match="over the checker's limits"):
        w.to_certificate()
    assert kb.witness(24, 3, 8).to_certificate()["claims"]["witness_inputs"] == len(kb.witness(24, 3, 8).to_certificate()["witness"]["inputs"])


def test_a_witness_file_over_64_mib_is_refused_though_its_tokens_alone_fit(tmp_path, capsys):
    """38,141 inputs of 64 tokens of m = 24 bits: 62.9 MiB of token characters, but 74.9 MiB
    of canonical JSON (one token a line, indented), which the checker refuses: exit 3, no file.
    At r >= 125 the file (65,376,889 bytes, which the checker accepts) is under the limit."""
    import kernelbounds as kb
    from kernelbounds.lowerbounds.assemble import smallest_witness
    from kernelbounds.lowerbounds.certify import listed_refusal

    out = tmp_path / "w.json"
    assert main(["witness", "--m", "24", "--n", "64", "--target-rank", "137", "-o", str(out)]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "38141 inputs" in err and not out.exists()
    with pytest.raises(ValueError, match="over the checker's limits"):
        kb.witness(24, 64, 137).to_certificate()
    assert listed_refusal(smallest_witness(24, 64, 125)) is None


def test_table_rows_do_not_depend_on_the_number_of_jobs():
    from kernelbounds.reports import report

    one = report.table(range(4, 9), range(3, 5), jobs=1)
    assert one == report.table(range(4, 9), range(3, 5), jobs=2)
    assert [(r.m, r.n) for r in one] == [(m, n) for m in range(4, 9) for n in (3, 4)]
    assert all(r.lower <= r.upper <= 2**r.m for r in one) and any(r.upper < 2**r.m for r in one)
