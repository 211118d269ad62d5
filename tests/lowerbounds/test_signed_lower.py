"""Lower bounds for signed kernels (THEORY §3 L8): the generator states r >= L3 - 1 from the
same codes and chains, and random signed heads of rank r with r + 1 below the checked bound
fail some input of the committed signed witness family, evaluated exactly."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from kernelbounds.bits import comp, from_str
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes, check_file
from kernelbounds.heads.evaluate import evaluate_family
from kernelbounds.heads.inputs import load_family
from kernelbounds.heads.tables import TableHead
from kernelbounds.lowerbounds import assemble
from kernelbounds.sources import codes

ROOT = Path(__file__).resolve().parents[2]
WITNESS = ROOT / "certificates" / "witness-signed-m24-n3-r7.json"
KERNELS = ("nonnegative", "signed", "signed-any-denominator")


@pytest.mark.parametrize("m", [6, 9, 12, 16])
@pytest.mark.parametrize("kernel", ["signed", "signed-any-denominator"])
def test_best_states_l3_minus_one_and_the_checker_agrees(m, kernel):
    nonneg = assemble.best(m, 3)
    lb = codes.best(m, 3, "position-independent", kernel)
    assert lb.bound == nonneg.bound - 1 and lb.k == nonneg.k and lb.kernel == kernel
    doc = assemble.any_certificate(lb)
    assert doc["kernel"] == kernel and doc["version"] == 2
    assert codes.restate(nonneg, kernel).certificate() == doc
    v = check_bytes(canonical_json(doc).encode())
    assert v.ok, v.render()
    assert v.claim["value"] == lb.bound
    assert assemble.from_certificate(doc) == lb


def test_the_linear_form_states_l3_minus_one():
    from kernelbounds.lowerbounds.codes.library import linear_candidates

    found = next(lin for code, w in linear_candidates(16) if (lin := assemble.assemble_linear(code, w, 3)) is not None)
    doc = codes.restate(found, "signed").certificate()
    assert "linear" in doc["code"] and doc["claims"]["bound"] == found.bound - 1
    v = check_bytes(canonical_json(doc).encode())
    assert v.ok and v.claim == {"side": "lower", "value": found.bound - 1, "m": 16, "n": 3, "variants": ["position-independent"], "kernels": ["nonnegative", "signed"]}


def test_nonnegative_files_are_unchanged_and_any_denominator_refuses_position_dependent():
    lb = assemble.best(24, 3)
    assert lb.kernel == "nonnegative" and "kernel" not in assemble.any_certificate(lb)
    assert canonical_json(codes.restate(lb, "nonnegative").certificate()) == (ROOT / "certificates" / "lower-position-independent-m24-n3.json").read_text()
    with pytest.raises(ValueError, match="position-dependent"):
        codes.best(24, 3, "position-dependent", "signed-any-denominator")
    with pytest.raises(ValueError, match="unknown kernel"):
        codes.best(24, 3, "position-independent", "positive")
    assert codes.best(3, 3, "position-independent", "signed").bound == 1  # trivial: a zero kernel has no denominator


def test_the_committed_signed_witness_family():
    doc = json.loads(WITNESS.read_text())
    assert doc["kernel"] == "signed" and doc["claims"]["bound"] == 7 and doc["claims"]["witness_inputs"] == 190
    v = check_file(str(WITNESS))
    assert v.ok and v.claim["value"] == 7 and v.claim["kernels"] == ["nonnegative", "signed"]


# ------------------------------------------------------------------ signed heads on the family

DOC = json.loads(WITNESS.read_text())
WORDS = [from_str(w) for w in DOC["code"]["words"]]
M = DOC["m"]
QUERIES = [comp(c, M) for c in WORDS]
BOUND = DOC["claims"]["bound"]  # r >= 7: the D-ratio matrix has rank >= 8 = r + 1


def head_on_family(phi: dict, psi: dict) -> TableHead:
    """A table head over the family's 20 tokens with the given features and the readout
    that makes every uniform input (q, z, z) exact whenever K(q, z) != 0 and its
    denominator is nonzero: F(q, q) = 0 and F(q, z) = <q,z> D(z) / (2 K(q, z)), so
    y = <q,z> (F is free per pair, THEORY §1); values are one-hot, readout rows F(q, .)."""
    tokens = sorted(set(QUERIES) | set(WORDS))
    index = {x: k for k, x in enumerate(tokens)}
    dot = lambda u, v: sum((a * b for a, b in zip(u, v, strict=True)), Fraction(0))  # noqa: E731
    r = len(next(iter(phi.values())))
    zero = (Fraction(0),) * r
    head = TableHead(M, {}, {}, {}, {})
    for x in tokens:
        head.phi_q[x] = phi.get(x, zero)
        head.phi_k[x] = psi[x]
        head.value[x] = tuple(Fraction(int(k == index[x])) for k in range(len(tokens)))
        row = [Fraction(0)] * len(tokens)
        if x in phi:
            k0 = dot(phi[x], psi[x])
            for z in WORDS:
                kz = dot(phi[x], psi[z])
                if kz != 0:
                    row[index[z]] = Fraction((x & z).bit_count()) * (k0 + 2 * kz) / (2 * kz)
        head.readout[x] = (tuple(row), Fraction(0))
    return head


ints = st.integers(-4, 4).map(Fraction)


@st.composite
def signed_heads(draw):
    """Rank r <= 9 features of any sign: phi_Q on the 10 queries, phi_K on the 10 code words
    (optionally the Gram form phi_K(c_j) = phi_Q(q_j), the closest to an identity) and on
    the queries themselves (the self weights K(q, q))."""
    r = draw(st.integers(1, 9))
    vec = st.tuples(*[ints] * r)
    phi = {q: draw(vec) for q in QUERIES}
    gram = draw(st.booleans())
    psi = {c: (phi[q] if gram else draw(vec)) for q, c in zip(QUERIES, WORDS, strict=True)}
    psi.update({q: draw(vec) for q in QUERIES})
    return r, head_on_family(phi, psi)


FAMILY = load_family(DOC)


@given(signed_heads())
def test_signed_heads_below_the_bound_fail_the_family(drawn):
    """THEORY L8 (a): a head solving the family has r + 1 >= 8 (the L3 bound on the D-ratio
    matrix); so every head with r + 1 < 8 fails some input, found by exact evaluation."""
    r, head = drawn
    result = evaluate_family(head, FAMILY, exact=True, progress=False)
    assert result.inputs == 190 and result.method == "exact"
    if r + 1 < BOUND + 1:
        assert not result.solves and result.first_failure is not None
        bad = result.first_failure
        assert bad.output is None or bad.error >= Fraction(1, 2)
    assert result.certified_bound == BOUND


def test_a_signed_head_of_feature_rank_11_solves_the_family():
    """The evaluation is not trivially failing: negative kernel values, positive self weights,
    K(q_i, c_j) = -1/200 (i != j), K(q_i, c_i) = 1, K(q_i, q_i) = 1/50."""
    one, e = Fraction(1), lambda i, r: tuple(Fraction(int(k == i)) for k in range(r))  # noqa: E731
    phi = {q: e(i, 11)[:10] + (one,) for i, q in enumerate(QUERIES)}
    psi = {c: tuple(one if k == j else Fraction(-1, 200) for k in range(10)) + (Fraction(0),) for j, c in enumerate(WORDS)}
    psi.update({q: (Fraction(0),) * 10 + (Fraction(1, 50),) for q in QUERIES})
    head = head_on_family(phi, psi)
    result = evaluate_family(head, FAMILY, exact=True, progress=False)
    assert result.solves and result.negative_weights == 90 and head.rank == 11
    assert result.kernel_rank == 10  # ten query rows
    assert not result.contradiction  # rank 10 >= the bound 7
