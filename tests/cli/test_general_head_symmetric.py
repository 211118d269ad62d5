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
