"""The orthant family (THEORY §3 L7) and its certificate kind `orthant`
(docs/certificate-format-v2.md): shattering, the witness counts, the checker's rules and
rejections, and L1's forced signs on a real solving head."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import verdict
from kernelbounds.bits import inner, to_str
from kernelbounds.lowerbounds import signrank
from kernelbounds.lowerbounds.assemble import VARIANTS

ROOT = Path(__file__).resolve().parents[2]


@given(st.integers(2, 22), st.integers(3, 8), st.sampled_from(VARIANTS))
def test_the_orthant_family_shatters_floor_m_over_2_queries(m, n, variant):
    o = signrank.orthant(m, n, variant)
    t = m // 2
    assert o.bound == t == signrank.bound(m) and len(o.pairs) == 2 ** (t - 1)
    for e, (a, b) in enumerate(o.pairs):  # <q_i, a> - <q_i, b> = 2 s_i exactly
        assert [inner(q, a) - inner(q, b) for q in o.queries] == [2 if c == "+" else -2 for c in o.pattern(e)]
    assert o.shatters()


@pytest.mark.parametrize("m,n,variant,count", [(4, 3, "position-independent", 12), (8, 3, "position-independent", 96), (12, 3, "position-independent", 576), (8, 3, "position-dependent", 128), (8, 5, "position-dependent", 192), (12, 4, "causal", 576)])
def test_witness_counts_are_theorys(m, n, variant, count):
    """3 t 2^(t-1) inputs, (n+1) t 2^(t-1) position-dependent (THEORY L7)."""
    o = signrank.orthant(m, n, variant)
    assert o.witness_count == count == len(set(o.witness_inputs)) == len(o.witness_inputs)
    scored = [inp[-1] if variant == "causal" else inp[0] for inp in o.witness_inputs]
    assert set(scored) == set(o.queries)


@given(st.integers(2, 16), st.integers(3, 6), st.sampled_from(VARIANTS), st.booleans())
def test_every_orthant_certificate_checks(m, n, variant, listed):
    v = verdict(signrank.orthant(m, n, variant).certificate(listed=listed))
    assert v.code == 0, v.render()
    assert f"kernel rank >= {m // 2}" in v.summary and variant in v.summary


@st.composite
def permuted_family(draw):
    """The orthant family at m under a random coordinate permutation, pair order and
    orientation: every such family satisfies the premise (all signs forced, shattered)."""
    m = draw(st.integers(2, 12))
    perm = draw(st.permutations(range(m)))
    o = signrank.orthant(m, draw(st.integers(3, 5)), draw(st.sampled_from(VARIANTS)))

    def move(x):
        return sum(1 << perm[i] for i in range(m) if x >> i & 1)

    pairs = [(move(b), move(a)) if draw(st.booleans()) else (move(a), move(b)) for a, b in o.pairs]
    order = draw(st.permutations(range(len(pairs))))
    queries = draw(st.permutations([move(q) for q in o.queries]))
    return signrank.Orthant(m, o.n, o.variant, (tuple(queries), tuple(pairs[i] for i in order)))


@given(permuted_family())
def test_permuted_families_check_with_the_same_bound(o):
    assert o.shatters()
    doc = o.certificate(listed=True)
    v = verdict(doc)
    assert v.code == 0 and f"kernel rank >= {o.t}" in v.summary, v.render()
    assert doc["claims"]["witness_inputs"] == o.witness_count


@given(permuted_family(), st.data())
def test_a_flipped_sign_in_a_pattern_is_rejected_at_that_pattern(o, data):
    doc = o.certificate(listed=True)
    e = data.draw(st.integers(0, len(o.pairs) - 1))
    i = data.draw(st.integers(0, o.t - 1))
    p = doc["family"]["pairs"][e]["pattern"]
    doc["family"]["pairs"][e]["pattern"] = p[:i] + ("-" if p[i] == "+" else "+") + p[i + 1 :]
    v = verdict(doc)
    assert v.code == 1 and v.pointer == f"/family/pairs/{e}/pattern"


@given(permuted_family(), st.data())
def test_a_repeated_class_is_rejected(o, data):
    """Replacing one pair by (the reversal of) another leaves a sign class uncovered."""
    if len(o.pairs) < 2:
        o = signrank.orthant(4, o.n, o.variant)
    doc = o.certificate(listed=True)
    e, f = data.draw(st.lists(st.integers(0, len(o.pairs) - 1), min_size=2, max_size=2, unique=True))
    src = doc["family"]["pairs"][f]
    doc["family"]["pairs"][e] = {"a": src["b"], "b": src["a"], "pattern": src["pattern"].translate(str.maketrans("+-", "-+"))}
    v = verdict(doc)
    assert v.code == 1 and v.pointer == f"/family/pairs/{max(e, f)}"


def test_an_unforced_query_and_wrong_claims_are_rejected():
    doc = signrank.orthant(6, 3).certificate(listed=True)
    bad = json.loads(json.dumps(doc))
    bad["family"]["pairs"][1]["b"] = bad["family"]["pairs"][1]["a"][:-2] + "00"  # b agrees with a on q_0, q_1: equal levels, unforced
    assert verdict(bad).pointer == "/family/pairs/1" and verdict(bad).code == 1
    for field, value in (("bound", 4), ("witness_inputs", 35)):
        bad = json.loads(json.dumps(doc))
        bad["claims"][field] = value
        v = verdict(bad)
        assert v.code == 1 and v.pointer == f"/claims/{field}", v.render()
    bad = json.loads(json.dumps(doc))
    del bad["family"]["pairs"][3]
    assert verdict(bad).pointer == "/family/pairs" and verdict(bad).code == 1
    bad = json.loads(json.dumps(doc))
    bad["version"] = 1
    assert verdict(bad).code == 2 and verdict(bad).pointer == "/kind"
    bad = json.loads(json.dumps(doc))
    bad["n"] = 2
    assert verdict(bad).code == 2 and verdict(bad).pointer == "/n"


def test_the_rule_form_is_limited_before_any_work():
    doc = signrank.orthant(4, 3).certificate()
    doc["m"] = 42  # t = 21 queries, 2^20 pairs
    v = verdict(doc)
    assert v.code == 3 and v.pointer == "/m"
    doc["m"] = 40
    assert verdict(doc, work_budget=10**6).code == 3
    assert signrank.orthant(10**6, 3).bound == 5 * 10**5  # the bound needs no pairs


def test_the_bound_is_tight_at_m4_against_the_committed_rank_2_head():
    """L7 at m = 4 gives r >= 2; the committed explicit head has rank 2 and solves every
    input, so on its kernel every forced sign of the family holds (L1 on a real head)."""
    doc = json.loads((ROOT / "certificates" / "explicit-head-m04-n3-r2.json").read_text())
    phi = [[Fraction(x) for x in row] for row in doc["head"]["phi"]]
    psi = [[Fraction(x) for x in row] for row in doc["head"]["psi"]]

    def K(q, z):
        return sum(x * y for x, y in zip(phi[q], psi[z], strict=True))

    o = signrank.orthant(4, 3)
    assert o.bound == doc["claims"]["feature_rank"] == 2
    for e, (a, b) in enumerate(o.pairs):
        for q, s in zip(o.queries, o.pattern(e), strict=True):
            assert (K(q, b) > K(q, a)) == (s == "+")
    # and L1 itself at every (q, a, b) with gap >= 2 over all 16 tokens
    for q, a, b in product(range(16), repeat=3):
        if inner(q, b) - inner(q, a) >= 2:
            assert K(q, a) > K(q, b), (to_str(q, 4), to_str(a, 4), to_str(b, 4))


@given(st.integers(2, 6), st.data())
def test_the_dependency_lemma_on_random_dependent_rows(t, data):
    """THEORY L7's argument: rows with sum mu_i K_i = 0 (mu != 0) violate some pair's forced
    signs, namely the pair whose pattern is sign(mu) up to orientation."""
    o = signrank.orthant(2 * t, 3)
    keys = sorted({z for p in o.pairs for z in p})
    j = data.draw(st.integers(0, t - 1))
    mu = data.draw(st.lists(st.integers(-5, 5), min_size=t, max_size=t))
    mu[j] = data.draw(st.sampled_from([-3, -1, 1, 2]))
    rows = {i: {z: Fraction(data.draw(st.integers(0, 9))) for z in keys} for i in range(t) if i != j}
    rows[j] = {z: -sum(mu[i] * rows[i][z] for i in rows) / mu[j] for z in keys}
    sign = "".join("+" if x >= 0 else "-" for x in mu)
    flip = sign.translate(str.maketrans("+-", "-+"))
    e = next(e for e in range(len(o.pairs)) if o.pattern(e) in (sign, flip))
    a, b = o.pairs[e] if o.pattern(e) == sign else o.pairs[e][::-1]
    assert sum(mu[i] * (rows[i][b] - rows[i][a]) for i in range(t)) == 0
    assert not all(rows[i][b] > rows[i][a] if sign[i] == "+" else rows[i][b] < rows[i][a] for i in range(t) if mu[i])
