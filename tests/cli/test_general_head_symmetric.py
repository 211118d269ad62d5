"""`kernelbounds general-head --symmetric`: the symmetry ansatz from the command line."""

import json

from kernelbounds.checker import check_file
from kernelbounds.cli import main


def test_symmetric_search_writes_a_valid_explicit_head(tmp_path, capsys):
    out = tmp_path / "h.json"
    assert main(["general-head", "--m", "4", "--n", "3", "--rank", "4", "--symmetric", "(0123)", "--seconds", "60", "-o", str(out)]) == 0
    v = check_file(str(out))
    assert v.ok and v.kind == "explicit-head"
    assert json.loads(out.read_text())["claims"]["feature_rank"] == 4
    assert "pi = (0,1,2,3)" in capsys.readouterr().out


def test_symmetric_auto_reports_the_permutation_in_json(capsys):
    assert main(["general-head", "--m", "3", "--n", "3", "--rank", "2", "--symmetric", "auto", "--seconds", "60", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["found"] and doc["permutation"] == "()" and doc["rank"] == 2


def test_bad_permutations_are_one_line_usage_errors(capsys):
    for cycles in ["(05)", "(0 1)(1 2)", "0,1", "(012)"]:
        assert main(["general-head", "--m", "4", "--n", "3", "--rank", "2", "--symmetric", cycles]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "error" in err


def test_symmetric_search_stops_at_its_time_limit_with_one_line_and_exit_3(capsys):
    """A new user's first run at m = 7: the search stops at --time-limit (wall clock), says
    where it was on one line and exits 3 (a resource limit, not 'nothing exists')."""
    import time

    start = time.monotonic()
    assert main(["general-head", "--m", "7", "--n", "3", "--rank", "3", "--symmetric", "(012)(345)", "--time-limit", "1"]) == 3
    assert time.monotonic() - start < 30
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "time limit of 1 s reached" in err and "proves nothing" in err


def test_symmetric_search_shows_its_progress(capsys):
    """--verbose: one line per iteration with the permutation, the iteration, the margin and
    the time left, from the first phi steps on (iteration 0)."""
    assert main(["general-head", "--m", "4", "--n", "3", "--rank", "2", "--symmetric", "()", "--time-limit", "120", "--verbose"]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines and lines[0].startswith("pi = (): iteration 0, margin ")
    assert all("margin" in x and x.endswith("s left") for x in lines)


def test_the_sweep_is_reachable_from_the_api_and_agrees_with_the_command(tmp_path):
    """kb.symmetric_head runs the same library sweep: the head it finds under the 4-cycle is
    the command's (same seed), certified exactly and accepted by the checker (r*(4, 3) <= 4)."""
    import kernelbounds as kb
    from kernelbounds.certificate import canonical_json

    found = kb.symmetric_head(4, 3, 4, "(0123)", seconds=60)
    assert found.found is not None and found.permutation == "(0,1,2,3)" and not found.out_of_time
    assert found.found.worst_error < 0.5  # THEORY §1: a head solves every input iff its worst error is below 1/2
    doc = found.found.certificate()
    assert kb.check(doc).ok
    out = tmp_path / "h.json"
    assert main(["general-head", "--m", "4", "--n", "3", "--rank", "4", "--symmetric", "(0123)", "--seconds", "60", "-o", str(out)]) == 0
    assert out.read_text() == canonical_json(doc)
    for bad in [dict(cycles="(012)", rank=2), dict(cycles=("0", "1")), dict(rank=0)]:
        args = dict(m=4, n=3, rank=4, cycles="(0123)") | bad
        try:
            kb.symmetric_head(**args)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")
