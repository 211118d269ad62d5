"""Rule `multi-block-level-family` (THEORY U8; docs/certificate-format-v2.md, MB1-MB8):
the class-pair reduction gives exactly the worst error over every input, the rank formula is
the exact rank of the explicit kernel, and every false claim is rejected at its pointer."""

import copy
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, lcm, prod

import flint
import pytest
from hypothesis import given, strategies as st

from helpers import verdict
from kernelbounds.checker import Limits
from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.rules import multiblock_work as rule

HALF = Fraction(1, 2)


def _doc(blocks, terms, eps, n=3, worst="1/4", rank=None, nonneg=None):
    return {"format": "kernelbounds-certificate", "version": 2, "kind": "multi-block-level-family", "m": sum(blocks), "n": n, "positions": "all",
            "blocks": list(blocks), "terms": [{"degrees": list(J), "g": str(g)} for J, g in sorted(terms.items())],
            "readout": {"type": "affine", "eps": str(eps)},
            "claims": {"worst_error": worst, "feature_rank": rank if rank is not None else _rank(blocks, terms),
                       "kernel_rank": rank if rank is not None else _rank(blocks, terms),
                       "nonnegative_features": all(g > 0 for g in terms.values()) if nonneg is None else nonneg}}


def _rank(blocks, terms):
    return sum(prod(comb(h, a) for h, a in zip(blocks, J, strict=True)) for J in terms)


def _explicit_kernel(blocks, terms):
    """K(q, z) = sum_T phi_T(q) psi_T(z) with phi_T(q) = g_J(T) [T inside q] and
    psi_T(z) = [T disjoint from z] (THEORY U8), every subset T of the m coordinates."""
    m = sum(blocks)
    starts = [sum(blocks[:i]) for i in range(len(blocks))]
    J = [tuple(((t >> s) & ((1 << h) - 1)).bit_count() for s, h in zip(starts, blocks, strict=True)) for t in range(1 << m)]
    return [[sum((terms.get(J[t], 0) for t in range(1 << m) if t & ~q == 0 and t & z == 0), Fraction(0)) for z in range(1 << m)] for q in range(1 << m)]


def _literal_worst(K, m, n, eps):
    """max |y - t| over every query and every multiset of n - 1 other tokens (THEORY §1)."""
    worst = Fraction(0)
    for q in range(1 << m):
        for others in combinations_with_replacement(range(1 << m), n - 1):
            keys = (q, *others)
            den = sum(K[q][z] for z in keys)
            y = sum(K[q][z] * ((q & z).bit_count() - HALF + eps) for z in keys) / den
            worst = max(worst, abs(y - min((q & z).bit_count() for z in keys)))
    return worst


@st.composite
def families(draw, max_m=4):
    """Blocks summing to m <= max_m, a support with random integer g_J and g_0 large enough
    that H >= 1 on the whole box (|C(x_i, J_i)| <= C(h_i, J_i)), and eps in (0, 1)."""
    m = draw(st.integers(1, max_m))
    cuts = sorted(draw(st.sets(st.integers(1, m - 1), max_size=m - 1))) if m > 1 else []
    blocks = tuple(b - a for a, b in zip([0, *cuts], [*cuts, m], strict=True))
    box = [J for J in _box(blocks) if any(J)]
    chosen = draw(st.lists(st.sampled_from(box), unique=True, max_size=4)) if box else []
    terms = {J: Fraction(draw(st.integers(-6, 6).filter(bool)), draw(st.integers(1, 3))) for J in chosen}
    terms[tuple(0 for _ in blocks)] = 1 + sum(abs(g) * prod(comb(h, a) for h, a in zip(blocks, J, strict=True)) for J, g in terms.items()) + draw(st.integers(0, 3))
    eps = Fraction(draw(st.integers(1, 15)), 16)
    return blocks, terms, eps


def _box(blocks):
    out = [()]
    for h in blocks:
        out = [x + (v,) for x in out for v in range(h + 1)]
    return out


@given(families(), st.integers(2, 3))
def test_the_class_pairs_give_the_worst_error_over_every_input_and_the_rank(fam, n):
    blocks, terms, eps = fam
    m = sum(blocks)
    K = _explicit_kernel(blocks, terms)
    literal = _literal_worst(K, m, n, eps)
    v = verdict(_doc(blocks, terms, eps, n, worst=str(literal)))
    wrong = verdict(_doc(blocks, terms, eps, n, worst=str(literal + 1)), exhaustive_inputs=0)  # the class pairs alone
    assert (wrong.code, wrong.pointer, wrong.derived) == (1, "/claims/worst_error", literal), wrong.render()
    if literal < HALF:
        assert v.code == 0, v.render()
        scale = lcm(*(g.denominator for g in terms.values()))
        assert v.claim["value"] == flint.fmpz_mat([[int(x * scale) for x in row] for row in K]).rank() == _rank(blocks, terms)
    else:
        assert (v.code, v.pointer) == (1, "/claims/worst_error"), v.render()


def _m12():
    from kernelbounds.upperbounds import multiblock

    return multiblock.certificate(12, 3, False)


def test_the_committed_m12_family_is_valid_and_claims_its_rank():
    doc = _m12()
    v = verdict(doc)
    assert v.code == 0, v.render()
    assert v.claim["value"] == doc["claims"]["feature_rank"] <= 75 and v.claim["side"] == "upper"
    assert v.claim["family"]["blocks"] == "+".join(map(str, doc["blocks"]))


def _negative(doc):
    return next(k for k, t in enumerate(doc["terms"]) if t["g"].startswith("-"))


@pytest.mark.parametrize("edit, code, pointer", [
    (lambda d: d["claims"].update(feature_rank=d["claims"]["feature_rank"] - 1), 1, "/claims/feature_rank"),
    (lambda d: d["claims"].update(kernel_rank=d["claims"]["kernel_rank"] + 1), 1, "/claims/kernel_rank"),
    (lambda d: d["claims"].update(nonnegative_features=True), 1, lambda d: f"/terms/{_negative(d)}/g"),
    (lambda d: d["readout"].update(eps="1/2"), 1, "/claims/worst_error"),
    (lambda d: d["readout"].update(eps="1"), 1, "/readout/eps"),
    (lambda d: d.update(blocks=[d["blocks"][0], d["blocks"][1] - 1]), 1, "/blocks"),
    (lambda d: d["terms"][-1].update(degrees=[d["blocks"][0] + 1, 0]), 1, lambda d: f"/terms/{len(d['terms']) - 1}/degrees/0"),
    (lambda d: d["terms"][0].update(g="-1"), 1, "/terms"),
    (lambda d: d["terms"].reverse(), 2, "/terms/1/degrees"),
    (lambda d: d["terms"][1].update(g="0"), 2, "/terms/1/g"),
    (lambda d: d["readout"].update(type="free"), 2, "/readout/type"),
    (lambda d: d.update(version=1), 2, "/kind"),
    (lambda d: d.update(extra=1), 2, "/extra"),
    (lambda d: d.update(blocks=[1] * 64, m=64), 3, ""),
])
def test_each_false_claim_is_rejected_at_its_pointer(edit, code, pointer):
    doc = copy.deepcopy(_m12())
    edit(doc)
    v = verdict(doc)
    assert (v.code, v.pointer) == (code, pointer(doc) if callable(pointer) else pointer), v.render()
    assert v.reason


def test_the_work_estimate_bounds_a_large_box_before_any_work():
    doc = copy.deepcopy(_m12())
    doc.update(blocks=[32, 32], m=64)
    small, large = rule.work(Node(_m12()), Limits()), rule.work(Node(doc), Limits())
    assert 0 < small < large < Limits().work_budget
