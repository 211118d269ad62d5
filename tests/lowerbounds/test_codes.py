"""Codes: exact properties of the constructions and the vectorised verifier."""

from collections import Counter
from itertools import combinations
from math import comb

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.lowerbounds.codes import Code, golay, graham_sloane, lexicode, packing, paley
from kernelbounds.lowerbounds.codes.johnson import johnson
from kernelbounds.lowerbounds.codes.library import candidates, direct_sum, disjoint_blocks
from kernelbounds.lowerbounds.codes.verify import gap_histogram, max_intersection


def pairwise_gaps(words):
    out = Counter()
    for i, a in enumerate(words):
        for j, b in enumerate(words):
            if i != j:
                out[(b & ~a).bit_count()] += 1
    return dict(out)


@given(st.integers(1, 130).flatmap(lambda m: st.tuples(st.just(m), st.lists(st.integers(0, 2**m - 1), min_size=2, max_size=30, unique=True))))
def test_vectorised_gap_histogram_equals_pairwise(mw):
    m, words = mw
    assert gap_histogram(words, m) == pairwise_gaps(words)


def test_golay_weight_distribution_and_intersections():
    assert Counter(w.bit_count() for w in golay.codewords()) == {0: 1, 8: 759, 12: 2576, 16: 759, 24: 1}
    assert set(golay.octads().gaps()) == {8 - x for x in (0, 2, 4)}
    assert set(golay.dodecads().gaps()) == {12 - x for x in (0, 4, 6, 8)}
    # linearity: the code is closed under XOR (checked on a sample of pairs)
    words = set(golay.codewords())
    assert all((a ^ b) in words for a, b in combinations(golay.codewords()[:200], 2))


def test_golay_shortenings():
    sizes = {m: golay.shortened(8, m).size for m in (21, 22, 23, 24)}
    assert sizes == {21: 210, 22: 330, 23: 506, 24: 759}  # octads avoiding 3, 2, 1, 0 points


@pytest.mark.parametrize("q", [7, 11, 19, 23, 31])
def test_paley_code(q):
    code = paley.paley(q)
    assert code.size == 2 * q and code.weight() == (q + 1) // 2
    assert set(code.gaps()) == {(q + 1) // 4, (q + 1) // 2}


@pytest.mark.parametrize("m,w", [(10, 3), (12, 4), (16, 4), (13, 5)])
def test_graham_sloane_distance_4_and_size(m, w):
    code = graham_sloane.graham_sloane(m, w)
    assert code.weight() == w and max_intersection(code.words, m) <= w - 2
    assert code.size * m >= comb(m, w)


@pytest.mark.parametrize("m,w,lam", [(12, 4, 1), (16, 6, 2), (24, 8, 4)])
def test_lexicode_intersections(m, w, lam):
    code = lexicode.lexicode(m, w, lam)
    assert code.weight() == w and max_intersection(code.words, m) <= lam
    assert code.size <= johnson(m, w - lam, w)


def test_lexicode_weight_8_distance_8_is_the_octads():
    assert lexicode.lexicode(24, 8, 4).size == 759


@pytest.mark.parametrize("m,w,lam,best", [(9, 3, 1, 12), (8, 4, 2, 14), (7, 3, 1, 7)])
def test_cpsat_finds_known_optimal_codes(m, w, lam, best):
    for code in (packing.search(m, w, lam), packing.max_code(m, w, lam)):  # the search, and what it stored
        assert code.size == best and "optimal" in code.note and max_intersection(code.words, m) <= lam


@pytest.mark.parametrize("key", packing.keys())
def test_every_stored_cpsat_code_has_its_parameters(key):
    """The stored codes the answer reads (no OR-Tools needed): weight w on m bits, any two
    words meeting in at most lam points, within the Johnson bound; every key is stored."""
    m, w, lam = key
    code = packing.max_code(m, w, lam)
    assert code.m == m and code.size >= 1 and all(x.bit_count() == w for x in code.words)
    assert all((a & b).bit_count() <= lam for i, a in enumerate(code.words) for b in code.words[i + 1 :])
    assert code.size <= johnson(m, w - lam, w)


@pytest.mark.slow
def test_the_stored_cpsat_codes_are_the_searchs():
    """packing.write_data would write the committed file again (55 searches, about 6 s)."""
    assert packing.document([(k, packing.search(*k)) for k in packing.keys()]) == json.loads(packing.DATA.read_text())


def test_johnson_bound_values():
    assert johnson(24, 4, 8) == 759  # the octads meet the bound
    assert johnson(9, 2, 3) == 12 and johnson(7, 2, 3) == 7


def test_direct_sum_and_blocks():
    d = direct_sum(golay.octads(), golay.octads(), 48)
    assert d.size == 1518 and min(d.gaps()) == 4 and d.gaps()[8] == 2 * 759 * 759 + 2 * 22770
    b = disjoint_blocks(10, 3)
    assert b.gaps() == {3: 6}


def test_candidates_all_have_gaps_at_least_2():
    for m in (6, 12, 24):
        for code in candidates(m):
            assert code.m == m and min(code.gaps()) >= 2 and code.size >= 2


def test_code_rejects_repeats():
    with pytest.raises(ValueError):
        Code("x", 4, (1, 1))
