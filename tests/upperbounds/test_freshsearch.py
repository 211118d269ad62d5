"""The choice of the upper-bound search lives behind upperbounds.freshsearch, not in the CLI:
U4's level families up to MAX_CLASSES level classes, U4''s prefix search beyond."""

from math import comb

import pytest

from kernelbounds.upperbounds import freshsearch


@pytest.mark.parametrize("m, n", [(4, 2), (12, 3), (16, 4), (8, 8)])
def test_up_to_the_class_limit_the_level_families_answer(m, n):
    assert comb(m + n, n) <= freshsearch.MAX_CLASSES
    assert freshsearch.method(m, n) == freshsearch.method(m, n, "subset", "free", True) == "families"


@pytest.mark.parametrize("m, n", [(64, 3), (40, 4), (24, 8)])
def test_beyond_it_only_the_complement_affine_prefix_search(m, n):
    assert comb(m + n, n) > freshsearch.MAX_CLASSES
    assert freshsearch.method(m, n) == freshsearch.method(m, n, "complement", "affine") == "prefix"
    for kwargs in ({"basis": "subset"}, {"readout": "free"}, {"prove_minimal": True}):
        with pytest.raises(freshsearch.Refused, match="prefix search"):
            freshsearch.method(m, n, **kwargs)


@pytest.mark.parametrize("n", [1, 9])
def test_lengths_outside_2_to_8_are_refused(n):
    with pytest.raises(freshsearch.Refused, match="n = 2..8"):
        freshsearch.method(12, n)


def test_a_small_search_returns_a_checked_certificate():
    from helpers import verdict

    found = freshsearch.run(6, 3, basis="complement", nonnegative=True, progress=False)
    v = verdict(found.certificate)
    assert found.method == "families" and v.ok and v.claim["side"] == "upper" and found.best.rank == v.claim["value"]
