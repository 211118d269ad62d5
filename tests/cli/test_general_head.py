"""`kernelbounds general-head` without --symmetric or --l1: the central alternation under the
identity permutation, which is every head of the rank (THEORY U5), from seeded starts."""

import json

import pytest

from kernelbounds.checker import check_file
from kernelbounds.cli import main


@pytest.mark.parametrize(("m", "n", "rank"), [(4, 5, 2), (5, 4, 3)])
def test_the_general_search_writes_a_head_the_checker_accepts(tmp_path, capsys, m, n, rank):
    """r*(4, n) = 2 and r*(5, n) = 3 for n = 3..8 (exact-small.md): heads of those ranks exist."""
    out = tmp_path / "h.json"
    assert main(["general-head", "--m", str(m), "--n", str(n), "--rank", str(rank), "-o", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["found"], doc["permutation"], doc["starts"], doc["output"]) == (True, "()", 8, str(out))
    v = check_file(str(out))
    assert v.ok and v.kind == "explicit-head"
    assert (v.claim["value"], v.claim["m"], v.claim["n"]) == (rank, m, n)


def test_below_r_star_nothing_is_found_and_nothing_is_written(tmp_path, capsys):
    """r*(4, 3) = 2 (a rank-one Farkas certificate), so rank 1 cannot be found: exit 1, one line."""
    out = tmp_path / "h.json"
    assert main(["general-head", "--m", "4", "--n", "3", "--rank", "1", "--starts", "2", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no rank-1 head found" in err and "proves nothing" in err
    assert not out.exists()
