"""`kernelbounds refute` (THEORY §2 U7): the stored cores replay, the written certificate
checks, satisfiable instances exit 1, oversized requests are refused in one line."""

import json
import shutil

import pytest

from kernelbounds.checker import check_file
from kernelbounds.cli import main


def test_refute_m5_rank2_writes_a_valid_certificate(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["refute", "--m", "5", "--rank", "2", "--variant", "causal", "-o", str(out)]) == 0
    assert "refuted, so r* >= 3" in capsys.readouterr().out
    v = check_file(str(out))
    assert v.ok and v.claim["value"] == 3 and v.claim["variants"] == ["causal", "position-independent"]


def test_refute_json_for_m6(capsys):
    assert main(["refute", "--m", "6", "--rank", "3", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["refuted"] and got["variables"] == 84 and got["clauses"] == 10435 and len(got["queries"]) == 9


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not installed")
def test_refute_m4_rank2_is_satisfiable(capsys):
    assert main(["refute", "--m", "4", "--rank", "2"]) == 1
    assert "satisfiable" in capsys.readouterr().out


@pytest.mark.parametrize("args", [["--m", "7", "--rank", "4"], ["--m", "3", "--rank", "4"], ["--m", "5", "--rank", "2", "--json", "-o", "-"]])
def test_refute_bad_requests_give_one_line(args, capsys):
    assert main(["refute", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kernelbounds: error:")


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not installed")
def test_a_search_over_its_time_limit_stops_with_exit_3_and_writes_nothing(tmp_path, capsys):
    """The fresh m = 6 search builds a 243,751-clause CNF first (seconds): past a 1 s limit
    the solver is not started, and nothing is written."""
    out = tmp_path / "r.json"
    assert main(["refute", "--m", "6", "--rank", "3", "--fresh", "--time-limit", "1", "-o", str(out)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nothing proved" in err and not out.exists()


def test_a_deadline_in_the_past_stops_before_the_solver():
    import time

    from kernelbounds.lowerbounds import refutation

    with pytest.raises(refutation.SolverTimeout):
        refutation.is_unsat([3, 5, 6], [(1, 2)], 2, deadline=time.monotonic() - 1)


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not installed")
def test_the_time_limit_also_stops_the_proof_trimming(monkeypatch, tmp_path, capsys):
    """The m = 5 search solves in a fraction of a second; with each lemma's RUP check slowed
    to 0.5 s its first trimming (36 lemmas) would take 18 s: the 2 s limit stops it (exit 3,
    nothing written) long before that."""
    import time

    from kernelbounds.lowerbounds import trimming

    slow = trimming._Propagator.rup_hints
    monkeypatch.setattr(trimming._Propagator, "rup_hints", lambda self, lits: (time.sleep(0.5), slow(self, lits))[1])
    out = tmp_path / "r.json"
    start = time.monotonic()
    assert main(["refute", "--m", "5", "--rank", "2", "--fresh", "--time-limit", "2", "-o", str(out)]) == 3
    assert time.monotonic() - start < 8 and not out.exists()
    assert "nothing proved" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not installed")
def test_a_failure_after_the_solver_is_an_internal_error_not_satisfiable(monkeypatch, capsys):
    """Exit 1 means the CNF is satisfiable: a generator failure on an UNSAT answer (here the
    trimming rejecting a lemma) is exit 4, and --json does not report refuted: false."""
    from kernelbounds.lowerbounds import refutation

    def broken(variables, clauses, proof, *args, **kwargs):
        raise ValueError("lemma '1 0' is not RUP")

    monkeypatch.setattr(refutation, "trim", broken)
    assert main(["refute", "--m", "5", "--rank", "2", "--fresh", "--json"]) == 4
    captured = capsys.readouterr()
    assert captured.out == "" and "internal error" in captured.err
