"""`kernelbounds general-head --l1`: heads by the L1 relaxation from the command line."""

import json
import time

import pytest

from kernelbounds.checker import check_file
from kernelbounds.cli import main


def test_l1_search_writes_a_valid_explicit_head(tmp_path, capsys):
    out = tmp_path / "h.json"
    assert main(["general-head", "--m", "5", "--n", "3", "--rank", "3", "--l1", "-o", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["found"] and doc["seed"] == 0 and doc["rank"] == 3
    v = check_file(str(out))
    assert v.ok and v.kind == "explicit-head"
    assert json.loads(out.read_text())["claims"]["feature_rank"] == 3


def test_l1_refuses_other_lengths_and_combinations_in_one_line(capsys):
    for extra in (["--n", "4", "--l1"], ["--n", "3", "--l1", "--symmetric", "(01)"], ["--n", "3", "--l1", "--signed"]):
        assert main(["general-head", "--m", "4", "--rank", "2", *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "error" in err


def test_m_above_8_needs_l1(capsys):
    assert main(["general-head", "--m", "9", "--n", "3", "--rank", "2"]) == 2
    assert "--l1" in capsys.readouterr().err


def test_l1_reaches_the_shipped_heads_m_and_no_further(capsys):
    """--l1 takes m = 11 (the shipped rank-12 head's m; here stopped by a 1 s time limit:
    exit 3, not a usage error) and refuses m = 12 in one line."""
    assert main(["general-head", "--m", "11", "--n", "3", "--rank", "12", "--l1", "--time-limit", "1"]) == 3
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:  # argparse's range check
        main(["general-head", "--m", "12", "--n", "3", "--rank", "14", "--l1"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--m" in err


def test_l1_stops_at_its_time_limit_with_one_line_and_exit_3(capsys):
    start = time.monotonic()
    assert main(["general-head", "--m", "9", "--n", "3", "--rank", "2", "--l1", "--time-limit", "1"]) == 3
    assert time.monotonic() - start < 60
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "time limit of 1 s reached" in err and "proves nothing" in err
