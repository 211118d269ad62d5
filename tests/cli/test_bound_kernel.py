"""`bound --kernel` and `table --kernel` (THEORY L8): the kernel class on the command line."""

import json
import subprocess
import sys

import pytest

from kernelbounds.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, timeout=300)


def test_bound_json_carries_the_kernel(capsys):
    assert main(["bound", "--m", "64", "--n", "3", "--json"]) == 0
    base = json.loads(capsys.readouterr().out)
    assert base["kernel"] == "nonnegative"
    for k in ("signed", "signed-any-denominator"):
        assert main(["bound", "--m", "64", "--n", "3", "--kernel", k, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["kernel"] == k and out["lower"] >= 3614
        assert (out["upper"], out["upper_nonnegative"]) == (base["upper"], base["upper_nonnegative"])


def test_position_dependent_any_denominator_is_a_one_line_user_error():
    for cmd in (["bound", "--m", "24", "--n", "3"], ["table", "--m", "4..6", "--n", "3"]):
        r = run(*cmd, "--variant", "position-dependent", "--kernel", "signed-any-denominator")
        assert r.returncode == 2 and "THEORY L8 (b)" in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_bound_o_signed_writes_a_certificate_the_checker_accepts(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["bound", "--m", "24", "--n", "3", "--kernel", "signed", "-o", str(out)]) == 0
    assert "signed kernel" in capsys.readouterr().out
    assert main(["check", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["kernel"] == "signed"


@pytest.mark.slow
@pytest.mark.parametrize("kernel", ["signed", "signed-any-denominator"])
def test_m64_signed_certificate_is_valid(tmp_path, kernel):
    out = tmp_path / "s64.json"
    assert main(["bound", "--m", "64", "--n", "3", "--kernel", kernel, "-o", str(out)]) == 0
    assert main(["check", str(out)]) == 0


def test_table_kernel_json(capsys):
    assert main(["table", "--m", "4..12", "--n", "3", "--kernel", "signed-any-denominator", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["m"] for r in rows] == list(range(4, 13)) and all(r["kernel"] == "signed-any-denominator" for r in rows)
    assert all(r["lower"] <= 3 for r in rows)
