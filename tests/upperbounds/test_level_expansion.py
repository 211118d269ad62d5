"""The v1 level-expansion construction kind and the restriction of level families
(THEORY §2 last paragraph, U4)."""

import copy
from fractions import Fraction
from math import comb

import pytest
from helpers import EPS, level_expansion_doc, literal_worst_error, verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.classes import LevelProfile, worst_error_by_classes
from kernelbounds.upperbounds.levelfamily import verdicts as lf_verdicts

@given(st.integers(1, 6), st.integers(2, 4), st.data())
def test_class_criterion_matches_the_construction_route(m, n, data):
    """classes.worst_error_by_classes equals the literal class-by-class error (h > 0)."""
    h = [data.draw(st.fractions(Fraction(1, 20), 20, max_denominator=20)) for _ in range(m + 1)]
    profile = LevelProfile(lambda p, l: h[l], lambda p, l: l - Fraction(1, 2) + EPS)
    assert literal_worst_error(h, m, n) == worst_error_by_classes(profile, m, n).worst_error


@pytest.mark.parametrize("m", [4, 5, 6])
def test_the_v1_level_expansion_kind_accepts_the_subset_family(m):
    doc = level_expansion_doc(m, 3)
    assert doc["claims"]["feature_rank"] < 2**m
    v = verdict(doc)
    assert v.code == 0, v.render()


def test_tampered_differences_rejected():
    doc = level_expansion_doc(5, 3)
    for j in range(6):
        bad = copy.deepcopy(doc)
        bad["head"]["kernel"]["differences"][j] = str(Fraction(bad["head"]["kernel"]["differences"][j]) + 1)
        v = verdict(bad)
        assert v.code == 1 and v.pointer in ("/claims/worst_error", "/claims/feature_rank"), v.render()


@pytest.mark.parametrize("name", ["upper-any-m12-n3.json", "upper-nonnegative-m12-n4.json", "upper-any-m10-n5.json"])
def test_restriction_of_a_committed_level_family_is_valid_at_every_smaller_m(name):
    """THEORY U4: restricted to tokens with the top bits 0, the head keeps solving length n
    with support S ∩ [0, m]; the checker accepts the restricted certificate."""
    import json
    from pathlib import Path

    doc = json.loads((Path(__file__).resolve().parents[2] / "certificates" / name).read_text())
    for m in range(2, doc["m"] + 1):
        r = lf_verdicts.restrict(doc, m)
        assert r["claims"]["feature_rank"] == sum(comb(m, j) for j in doc["claims"]["support"] if j <= m)
        v = verdict(r)
        assert v.code == 0, (m, v.render())
