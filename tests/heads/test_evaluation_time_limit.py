"""`evaluate --max-seconds` holds for heads of huge numbers: the work estimate counts the
bit lengths of the head's numbers (heads.evaluate.number_sizes, number_cost), and the limit
is enforced while the evaluation runs (heads.timelimit), so a head of 4000-digit rationals
is exit 3 in about a second, not minutes of exact arithmetic."""

import json
from fractions import Fraction
import random
import time

import numpy as np
import pytest
from hypothesis import given, strategies as st

import kernelbounds as kb
from kernelbounds.cli import main
from kernelbounds.heads.exactrows import lcm, scaled
from kernelbounds.heads.evaluate import SIZE_BITS, estimate_seconds, evaluate_family, number_cost, number_sizes
from kernelbounds.heads.inputs import Family
from kernelbounds.heads.tables import load
from kernelbounds.heads.timelimit import TimeLimit

DIGITS = 4000


def _huge_head(m: int, digits: int = DIGITS, r: int = 2, seed: int = 1) -> dict:
    """Every feature and readout entry a ratio of two random `digits`-digit integers."""
    rng = random.Random(seed)

    def big() -> str:
        return f"{rng.randrange(10 ** (digits - 1), 10**digits)}/{rng.randrange(10 ** (digits - 1), 10**digits)}"

    tokens = {}
    for x in range(2**m):
        bits = "".join(str(x >> i & 1) for i in range(m))
        tokens[bits] = {"phi_q": [big() for _ in range(r)], "phi_k": [big() for _ in range(r)], "value": [str(x)], "readout": {"w": [big()], "b": big()}}
    return {"format": "kernelbounds-head", "version": 1, "m": m, "tokens": tokens}


def test_evaluate_all_of_4000_digit_features_is_refused_within_max_seconds(tmp_path, capsys):
    path = tmp_path / "head.json"
    path.write_text(json.dumps(_huge_head(4)))
    start = time.monotonic()
    code = main(["evaluate", "--all", "--m", "4", "--n", "3", "--head", str(path), "--max-seconds", "1"])
    _, err = capsys.readouterr()
    assert code == 3 and time.monotonic() - start < 5
    assert err.startswith("kernelbounds: evaluating all 2^12 inputs") and "over --max-seconds 1" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("exact", [True, False], ids=["exact", "float-pass"])
def test_the_time_limit_is_enforced_while_the_evaluation_runs(exact):
    """Without the estimate (the API's max_seconds alone): the evaluation stops soon after."""
    head = load(json.dumps(_huge_head(5)))
    assert estimate_seconds(Family.all(5, 3), head, exact=exact) > 10  # work the limit has to stop
    start, cpu = time.monotonic(), time.process_time()
    with pytest.raises(TimeLimit, match="time limit of 1 s"):
        evaluate_family(head, Family.all(5, 3), exact=exact, max_seconds=1)
    assert time.process_time() - cpu < 3  # the work done: at most 2 s past the limit, whatever the machine's load
    assert time.monotonic() - start < 10  # and stopped long before the estimated work would end


def test_the_estimate_grows_with_the_bit_lengths():
    small, huge = load(json.dumps(_huge_head(3, digits=3))), load(json.dumps(_huge_head(3)))
    bits_small, _ = number_sizes(small)
    bits_huge, floatable = number_sizes(huge)
    assert floatable and bits_small <= SIZE_BITS < 16 * 3 * (DIGITS - 1) <= bits_huge  # phi_K alone: 16 distinct denominators of DIGITS digits, over 3 bits each
    for exact in (True, False):
        assert estimate_seconds(Family.all(3, 3), huge, exact) >= 100 * estimate_seconds(Family.all(3, 3), small, exact)


def test_a_float_trained_head_costs_as_small_numbers():
    """Floats read exactly have power-of-two denominators: their lcm is the largest one."""
    ip = np.array([[bin(q & z).count("1") for z in range(64)] for q in range(64)])
    rng = np.random.default_rng(0)
    head = kb.Head.from_arrays(rng.random((64, 8)), rng.random((64, 8)), np.eye(64), (ip[:, :64], rng.random(64)), m=6)
    bits, floatable = number_sizes(head)
    assert floatable and number_cost(bits) == 1.0


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=0, max_value=10**7))
def test_the_cost_of_a_step_is_one_up_to_size_bits_and_grows_with_the_bits(a, b):
    lo, hi = sorted((a, b))
    assert number_cost(lo) <= number_cost(hi) and (number_cost(lo) == 1.0) == (lo <= SIZE_BITS)


def test_the_api_takes_the_time_limit():
    with pytest.raises(TimeLimit):
        kb.evaluate(_huge_head(5), Family.all(5, 3), max_seconds=1)


@given(st.lists(st.fractions(max_denominator=10**6), min_size=1, max_size=8), st.integers(min_value=1, max_value=10**6))
def test_scaling_by_a_common_multiple_is_the_exact_product(values, k):
    """exactrows.scaled (one division per entry, no gcd of the huge product) is d*x exactly."""
    d = lcm(*(x.denominator for x in values)) * k
    assert scaled(values, d) == [int(x * d) for x in values] and all(Fraction(v, d) == x for v, x in zip(scaled(values, d), values, strict=True))
