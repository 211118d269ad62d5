"""The hub above m = 64 (THEORY L9): every lower side is a lookup of the committed direct
sums (padded by restriction) or the stored m = 64 cell, never a code search; the values
THEORY measured independently; lower sides non-decreasing in m over 2..256."""

import subprocess
import sys
import time

import pytest

from kernelbounds.hub import answer as hub
from kernelbounds.lowerbounds import assemble

VARIANT_KERNELS = [("position-independent", "nonnegative"), ("position-independent", "signed"), ("position-independent", "signed-any-denominator"),
                   ("causal", "nonnegative"), ("causal", "signed-any-denominator"), ("position-dependent", "nonnegative"), ("position-dependent", "signed")]


@pytest.mark.parametrize("m, value", [(48, 467), (56, 1299), (64, 3616), (128, 13_880_995), (256, 200_981_437_857_743)])
def test_the_direct_sums_theory_measured(m, value):
    side = hub.bounds(m, 3).lower
    assert side.value == value and side.theory == "L9" and side.certificate.startswith("lower-sum-")


def test_padding_between_lengths_and_signed_classes():
    """m = 100 pads the m = 96 sum (RM(2,6) + RM(2,5): 226,244); the signed classes state b - 1 (THEORY L8)."""
    a = hub.bounds(100, 3)
    assert a.lower.value == 226_244 and a.lower.from_m == 96
    assert hub.bounds(128, 3, kernel="signed").lower.value == 13_880_994
    assert hub.bounds(128, 3, "causal", kernel="signed-any-denominator").lower.value == 13_880_994


def test_lower_sides_are_non_decreasing_in_m():
    for variant, kernel in VARIANT_KERNELS:
        for n in range(3, 9):
            values = [hub.bounds(m, n, variant, kernel=kernel).lower.value for m in range(2, 257)]
            assert values == sorted(values), (variant, kernel, n)


def test_the_code_search_is_not_run_above_m_64():
    """The superseded path (orbits of padded weight classes, 15-50 s per m) is unreachable."""
    with pytest.raises(ValueError, match="direct sums"):
        assemble.best(65, 3)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "kernelbounds", "bound", "--m", "100", "--n", "3", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and '"lower": 226244' in done.stdout, done.stderr
    assert time.perf_counter() - start < 10  # a lookup (under 1 s on an idle machine; the suite may share the cores)


def test_a_direct_sum_side_describes_its_components_from_the_checked_file():
    """The API's code fields of a sum side: the components by name and copies (their
    lengths add up to the cited file's m), the size the product of the component sizes
    (THEORY L9: the sum's words are the tuples of component words), k and the value those
    of the file's checked claims."""
    import json

    from kernelbounds.hub import index

    import kernelbounds as kb

    for m in (100, 128, 256):
        b = kb.bound(m, 3)
        doc = json.loads(index.read_shipped(b.sides["lower"]["certificate"]))
        parts = [(c["code"]["name"], c["copies"], c["m"], c["claims"]["code_size"]) for c in doc["components"]]
        assert b.form == "direct sum" and b.code == " + ".join(n for n, c, _, _ in parts for _ in range(c))
        assert sum(c * mm for _, c, mm, _ in parts) == doc["m"] <= m
        size = 1
        for _, c, _, s in parts:
            size *= s**c
        assert b.code_size == size and b.k == doc["claims"]["k"] and b.lower == doc["claims"]["bound"]
        assert b.code_weight is None and b.min_gap is None
