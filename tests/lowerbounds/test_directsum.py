"""Direct sums of codes (THEORY §3 L9): the generator's route (convolution of total pair
histograms, sumsets of gap sets) against the checker's (one convolution per multiset of
orbits), against a brute-force pass over the listed words of small sums, and the
supermultiplicativity of B_k that L9 proves."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from helpers import verdict
from kernelbounds.checker.rules import directsum as rule
from kernelbounds.lowerbounds import assemble, directsum
from kernelbounds.lowerbounds import certify
from kernelbounds.lowerbounds.codes import Code
from kernelbounds.lowerbounds.codes.linear import reed_muller
from kernelbounds.lowerbounds.rankbound import least_rank, threshold

RM13 = directsum.Component("RM(1,3)", reed_muller(1, 3), 4)  # 14 words of weight 4 at m = 8, gaps 2 and 4
SMALL = ("RM(1,4)", "golay-dodecads", "RM(2,5)")
VARIANTS = ("position-independent", "position-dependent", "causal")
# the (variant, kernel) pairs THEORY L5/L8 cover (signed-any-denominator: not position-dependent)
COVERED = [(v, k) for v in VARIANTS for k in ("nonnegative", "signed", "signed-any-denominator") if (v, k) != ("position-dependent", "signed-any-denominator")]


def checker_gaps(parts) -> dict[int, int]:
    """The checker's route: its own convolution per multiset of orbits (rules/directsum.py)."""
    comps = [rule.Component(c.m, copies, c.size, c.weight, [(o.size, Counter(o.gaps)) for o in c.rows], c.name) for c, copies in parts]
    out: Counter[int] = Counter()
    for choice in product(*(list(rule.multisets(c)) for c in comps)):
        size, hist = 1, {0: 1}
        for orderings, chosen in choice:
            size *= orderings
            for orbit_size, h in chosen:
                size *= orbit_size
                hist = rule.convolve(hist, rule.with_self(h))
        assert hist[0] == 1
        for g, c in hist.items():
            if g:
                out[g] += size * c
    return dict(sorted(out.items()))


def sum_words(parts) -> list[int]:
    """Every word of the sum, listed (coordinates: component by component, copy by copy)."""
    blocks = []
    for c, copies in parts:
        blocks += [[int(w) for w in c.code.words_of_weight_array(c.weight)]] * copies
    lengths = [c.m for c, copies in parts for _ in range(copies)]
    out = []
    for choice in product(*blocks):
        word, shift = 0, 0
        for w, length in zip(choice, lengths, strict=True):
            word |= w << shift
            shift += length
        out.append(word)
    return out


def brute_gaps(words: list[int], m: int) -> dict[int, int]:
    full = (1 << m) - 1
    out: Counter[int] = Counter()
    for a in words:
        for b in words:
            if a != b:
                out[(b & (full ^ a)).bit_count()] += 1
    return dict(sorted(out.items()))


parts_strategy = st.lists(st.tuples(st.sampled_from(SMALL), st.integers(1, 3)), min_size=1, max_size=3, unique_by=lambda t: t[0])


@settings(max_examples=25, deadline=None)
@given(parts=parts_strategy)
def test_generator_and_checker_convolutions_agree(parts):
    lib = directsum.library()
    resolved = tuple((lib[name], copies) for name, copies in parts)
    assert directsum.sum_gaps(resolved) == checker_gaps(resolved)


@settings(max_examples=20, deadline=None)
@given(parts=parts_strategy, n=st.integers(3, 8), variant_kernel=st.sampled_from(COVERED))
def test_every_generated_sum_is_accepted(parts, n, variant_kernel):
    """The checker re-derives the generator's bound, least product and witness count (its
    own convolution and closed-form count) for sums of every variant and kernel class."""
    variant, kernel = variant_kernel
    v = verdict(directsum.direct_sum(tuple(parts), n, variant, kernel).certificate())
    assert v.ok, v.line()


@pytest.mark.parametrize("parts, n, variant", [
    (((RM13, 2),), 3, "position-independent"),
    (((RM13, 1), ("RM(1,4)", 1)), 4, "position-dependent"),
    (((RM13, 2),), 5, "causal"),
])
def test_small_sums_equal_the_listed_code_bound(parts, n, variant):
    """A sum small enough to list: its pair histogram by brute force equals both routes, and
    the direct-sum file's bound, least product and witness count equal those the checker
    derives pairwise (rule lower-bound, its own row-by-row family count) for the listed words."""
    lib = directsum.library()
    resolved = tuple((lib[c] if isinstance(c, str) else c, t) for c, t in parts)
    lb = directsum.direct_sum(parts, n, variant)
    words = sum_words(resolved)
    assert len(words) == lb.size
    assert brute_gaps(words, lb.m) == directsum.sum_gaps(resolved) == checker_gaps(resolved)
    listed = certify.certificate(assemble.assemble(Code("sum", lb.m, tuple(words)), n, variant))
    doc = lb.certificate()
    assert verdict(listed).ok and verdict(doc).ok
    for key in ("bound", "min_product", "witness_inputs"):
        assert doc["claims"][key] == listed["claims"][key], key


def b_k(parts, n: int, k: int) -> Fraction:
    lib = directsum.library()
    resolved = tuple((lib[c] if isinstance(c, str) else c, t) for c, t in parts)
    lb = directsum.direct_sum(resolved, n)
    return threshold(lb.size, lb.products, k)


@settings(max_examples=20, deadline=None)
@given(a=st.sampled_from(SMALL + ("RM(1,3)",)), b=st.sampled_from(SMALL + ("RM(1,3)",)), n=st.integers(3, 8), k=st.integers(1, 4))
def test_b_k_is_supermultiplicative(a, b, n, k):
    """THEORY L9: B_k(C + D) >= B_k(C) B_k(D) for every k >= 1 and n >= 3."""
    a, b = (RM13 if x == "RM(1,3)" else x for x in (a, b))
    parts = ((a, 1), (b, 1)) if a != b else ((a, 2),)
    assert b_k(parts, n, k) >= b_k(((a, 1),), n, k) * b_k(((b, 1),), n, k)


def test_sums_beat_the_single_codes_where_theory_measured_them():
    """THEORY L9 (measured independently): n = 3, k = 1."""
    expected = {(("golay-dodecads", 2),): 467, (("RM(2,5)", 1), ("golay-dodecads", 1)): 1299, (("RM(2,5)", 2),): 3616}
    for parts, value in expected.items():
        lb = directsum.direct_sum(parts, 3)
        assert (lb.bound, lb.k) == (value, 1)
        assert least_rank(1, threshold(lb.size, lb.products, 1)) == value


def test_every_component_map_is_an_automorphism():
    """Each library permutation maps its code's words of the weight onto themselves (the
    Golay maps are PSL(2,23) on the projective line; THEORY L3 'Rows in one orbit')."""
    for c in directsum.library().values():
        if c.m > 32:
            continue  # RM(2,6): the affine generators of codes/linear.py, tested with that module
        words = set(int(w) for w in c.code.words_of_weight_array(c.weight))
        for p in c.code.automorphisms:
            assert {sum(1 << p[i] for i in range(c.m) if w >> i & 1) for w in words} == words


@pytest.mark.slow
def test_best_sums_at_64_128_and_256():
    """THEORY L9: at n = 3 the best sums are RM(2,5)^2 (3,616) at m = 64, RM(2,6)^2
    (13,880,995) at 128 and RM(2,6)^4 (200,981,437,857,743) at 256."""
    assert directsum.best(64, 3).bound == 3616
    for m, value in ((128, 13_880_995), (256, 200_981_437_857_743)):
        lb = directsum.best(m, 3)
        assert lb.bound == value and lb.name == f"RM(2,6)^{m // 64}"


@pytest.mark.slow  # the search over every sum of each committed length (several minutes at m = 256)
def test_the_recorded_best_sums_are_the_search_results():
    for (m, n), parts in directsum.RECORDED.items():
        assert directsum.best_parts(m, n) == parts, (m, n)
