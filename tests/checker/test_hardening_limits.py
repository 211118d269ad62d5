"""The checker's own knobs and walks under bad input: guard limits out of range (exit 2,
one line, at every entry point), the coverage walk at any m up to max_m (no recursion),
the Motzkin sums estimated at their common-denominator height, and the checking child
dying with its front end (docs/soundness.md, "The runtime guard", "Work estimate")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from itertools import product
from math import comb

import pytest
from hypothesis import given, strategies as st

import kernelbounds as kb
from helpers import survivors_of_signal
from kernelbounds.checker import Limits, check_bytes
from kernelbounds.checker.jsonread import Node, parse_json
from kernelbounds.checker.rules import levelfamily, levelminimality_work

VALID = os.path.join(os.path.dirname(__file__), "..", "corpus", "correct", "crossing-m5-n3.json")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p))
FRONT_ENDS = ([sys.executable, "-m", "kernelbounds.checker"], [sys.executable, "-m", "kernelbounds", "check"])


def _run(argv):
    return subprocess.run(argv, capture_output=True, text=True, env=ENV, timeout=120)


# ---------------------------------------------------------------- guard limits


@pytest.mark.parametrize("front", FRONT_ENDS, ids=["checker", "cli"])
@pytest.mark.parametrize("option", [
    ["--time-limit", "9999999999"], ["--time-limit", "1000001"], ["--memory-limit", "9223372036854775807"],
    ["--memory-limit", "99999999999G"], ["--limit", "time_limit=9999999999"], ["--limit", "memory_limit=18446744073709551616"],
])
def test_absurd_guard_limits_are_a_usage_error(front, option):
    """A limit past what select() and setrlimit() can take: exit 2, one line, no traceback
    (it was a traceback and exit 1 on a valid file, or exit 4)."""
    done = _run([*front, *option, VALID])
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


@pytest.mark.parametrize("front", FRONT_ENDS, ids=["checker", "cli"])
def test_largest_guard_limits_still_check(front):
    done = _run([*front, "--time-limit", "1000000", "--memory-limit", str(2**50), VALID])
    assert done.returncode == 0 and done.stdout.startswith("VALID"), done.stderr


ABSURD = [{"time_limit": 10**10}, {"memory_limit": 2**63}, {"time_limit": -1}, {"memory_limit": -5}, {"time_limit": 1.5}, {"time_limit": True}, {"memory_limit": "2G"}]


@pytest.mark.parametrize("override", ABSURD)
def test_api_turns_absurd_limits_into_a_code_2_verdict(override):
    """Limits refuses them at construction (one line); one forced past __post_init__ is
    still a code-2 verdict before anything runs."""
    with pytest.raises(ValueError) as info:
        Limits(**override)
    assert "\n" not in str(info.value) and next(iter(override)) in str(info.value)
    limits = Limits()
    for name, value in override.items():
        object.__setattr__(limits, name, value)
    with open(VALID, "rb") as fh:
        data = fh.read()
    for source in (VALID, data, json.loads(data)):
        verdict = kb.check(source, limits)
        assert verdict.code == 2 and "limit" in verdict.reason and "\n" not in verdict.reason


def test_api_checks_under_the_largest_limits():
    assert kb.check(VALID, Limits(time_limit=10**6, memory_limit=2**50)).ok


# ---------------------------------------------------------------- the coverage walk


def _brute_uncovered(m: int, bound: int, refuted: list[list[int]]):
    """The first maximal support {0} + S of cost < bound in no refuted support, by enumeration."""
    masks = [sum(1 << j for j in s) for s in refuted]
    out = []
    for bits in product((0, 1), repeat=m):
        mask = 1 | sum(1 << (j + 1) for j, b in enumerate(bits) if b)
        c = sum(comb(m, j) for j in range(m + 1) if mask >> j & 1)
        if c >= bound:
            continue
        maximal = all(c + comb(m, i) >= bound for i in range(1, m + 1) if not mask >> i & 1)
        if maximal and not any(mask & ~r == 0 for r in masks):
            out.append(mask)
    return out


@given(st.integers(1, 7).flatmap(lambda m: st.tuples(st.just(m), st.integers(2, 2**m), st.lists(st.lists(st.integers(0, m), max_size=m + 1).map(lambda s: sorted(set(s) | {0})), max_size=4))))
def test_iterative_coverage_walk_agrees_with_enumeration(case):
    m, bound, refuted = case
    uncovered = _brute_uncovered(m, bound, refuted)
    try:
        levelfamily._check_coverage(m, bound, refuted, "/minimality/refuted")
        passed = True
    except kb.checker.errors.Invalid:
        passed = False
    assert passed == (not uncovered)


@pytest.mark.parametrize("m", [995, 2000, 4096])
def test_coverage_walk_runs_at_every_m_up_to_max_m(m):
    """Depth m + 1 with no recursion: it hit Python's recursion limit near m = 990 and the
    file was refused as malformed ("nested too deeply")."""
    bound = m + 2  # the supports {0, 1}, {0, m - 1} are cheaper, and {0, 1, m} covers {0, 1}, {0, m}, ...
    levelfamily._check_coverage(m, bound, [[0, 1, m], [0, m - 1, m]], "/x")
    with pytest.raises(kb.checker.errors.Invalid, match="lies in no refuted support"):
        levelfamily._check_coverage(m, bound, [[0, 1, m]], "/x")
    assert levelfamily.covering_nodes(m, bound) == 8


def test_no_rule_recurses():
    """Every walk in the trusted base is iterative (an AST scan for self-calls)."""
    import ast
    import pathlib

    root = pathlib.Path(levelfamily.__file__).parent
    found = []
    for path in sorted(root.glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef):
                calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == fn.name]
                found += [f"{path.name}:{fn.name}" for _ in calls[:1]]
    assert found == []


# ---------------------------------------------------------------- Motzkin sums at their height


def _minimality_doc(items: int, digits: int) -> dict:
    """A level-family-minimality document whose one prefix sums `items` multipliers with
    distinct `digits`-digit denominators: the running sum's denominator grows to
    items x digits digits (the rule rejects it at the end: the combination is not 0)."""
    mults = [{"class": [1, 0, 0], "y": f"1/{10**digits + 2 * i + 1}"} for i in range(items)]
    return {
        "format": "kernelbounds-certificate", "version": 2, "kind": "level-family-minimality", "n": 3,
        "basis": "complement", "readout": "affine", "signs": "any", "prefixes": [{"reach": 3, "refutation": mults}],
        "claims": {"max_m": 1, "chain_bounds": [{"m": 1, "bound": 1, "chain": [0]}]},
    }


@pytest.mark.parametrize("items,digits", [(800, 100), (300, 600)])
def test_motzkin_estimate_bounds_the_real_work(items, digits):
    """Estimate >= measured CPU time (10^7 units a second), and not absurdly more: the old
    estimate charged each row at one string's height (100x under)."""
    data = json.dumps(_minimality_doc(items, digits)).encode()
    units = levelminimality_work.work(Node(parse_json(data)), Limits())
    start = time.process_time()
    verdict = check_bytes(data, limits=Limits(work_budget=10**12), guard=False)
    seconds = time.process_time() - start
    assert verdict.code == 1 and "Motzkin needs 0" in verdict.reason
    assert units / 10**7 >= seconds, (units, seconds)
    assert units / 10**7 <= 40 * seconds + 0.5, (units, seconds)


def test_motzkin_sum_past_the_budget_is_refused_before_it_runs():
    data = json.dumps(_minimality_doc(2000, 100)).encode()
    start = time.process_time()
    verdict = check_bytes(data, limits=Limits(work_budget=2 * 10**7), guard=False)
    assert verdict.code == 3 and "work estimate" in verdict.reason
    assert time.process_time() - start < 1.0


# ---------------------------------------------------------------- the child dies with its front end


API_SCRIPT = "import sys, kernelbounds as kb; from kernelbounds.checker import Limits; kb.check(sys.argv[1], Limits(work_budget=10**13))"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [
    ("checker", signal.SIGTERM), ("cli", signal.SIGTERM), ("api", signal.SIGTERM), ("checker", signal.SIGINT), ("api", signal.SIGKILL),
])
def test_checking_child_dies_with_its_front_end(tmp_path, how):
    entry, sig = how
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(_minimality_doc(6000, 100)))  # about 20 s of checking
    argv = {
        "checker": [*FRONT_ENDS[0], "--limit", "work_budget=10000000000000", str(path)],
        "cli": [*FRONT_ENDS[1], "--limit", "work_budget=10000000000000", str(path)],
        "api": [sys.executable, "-c", API_SCRIPT, str(path)],
    }[entry]
    assert survivors_of_signal(argv, sig, env=ENV) == []


def test_a_file_stated_over_the_size_limit_is_refused_unread(tmp_path):
    """A sparse file of 4 GiB is refused from its stated size (exit 3) without reading its
    first max_file_bytes + 1 bytes: the reading process's peak memory barely moves."""
    import resource

    from kernelbounds.checker import check_file

    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.truncate(4 * 2**30)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    v = check_file(str(path), Limits(max_file_bytes=2**26))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB
    assert v.code == 3 and "max_file_bytes" in v.reason and str(4 * 2**30) in v.reason
    assert grown < 16 * 1024
