"""checker.work_estimate (for scheduling and the progress bar) is the number check_file
computes before checking, and 0 for a file refused before it."""

from pathlib import Path

import pytest

from kernelbounds.checker import Limits, check_file, work_estimate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["construction-tensor-m03-n3.json", "witness-m24-n3-r8.json", "rank-tensor-m08.json", "upper-any-m12-n3.json"])
def test_it_equals_the_checkers_estimate(name):
    path = ROOT / "certificates" / name
    assert work_estimate(path.read_bytes()) == check_file(str(path)).work > 0


@pytest.mark.parametrize("data", [b"{", b"[]", b'{"kind": "no-such-kind", "version": 1}', b"\xff" * 10])
def test_a_file_refused_before_the_estimate_weighs_nothing(data):
    assert work_estimate(data) == 0


def test_a_file_over_the_size_limit_weighs_nothing():
    data = (ROOT / "certificates" / "construction-tensor-m03-n3.json").read_bytes()
    assert work_estimate(data, Limits(max_file_bytes=len(data) - 1)) == 0
