"""Every input exactly: Family.all(m, n) through the extreme-class route agrees with
the literal listing of all 2^(m n) inputs, with the generator's worst-error routine, and
with the checker (the certificate of a head that solves)."""

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kernelbounds as kb
from kernelbounds import testing
from kernelbounds.heads.evaluate import evaluate_family
from kernelbounds.heads.inputs import Family, FamilyError
from kernelbounds.heads.tables import HeadError, TableHead
from kernelbounds.upperbounds.generalheads import from_tables, worst_error

ROOT = Path(__file__).resolve().parents[2]
HEADS = ROOT / "kernelbounds" / "data" / "heads"


def listed_all(m, n):
    inputs = tuple(product(range(2**m), repeat=n))
    return Family(m, n, "all", len(inputs), None, _listed=inputs)


def table_head(explicit) -> TableHead:
    """An explicit head (tables phi, psi, F) as a table head: v(z) = e_z, w_q = F(q, .)."""
    T = 2**explicit.m
    F = np.array(explicit.F, dtype=object)
    return TableHead.from_arrays(np.array(explicit.phi, dtype=object), np.array(explicit.psi, dtype=object), np.eye(T, dtype=int), (F, np.zeros(T, dtype=int)), m=explicit.m)


def perturbed(head: TableHead, scale: Fraction) -> TableHead:
    """The same head with F(q, z) moved by scale * (a fixed pattern): near the 1/2 boundary."""
    out = TableHead(head.m, dict(head.phi_q), dict(head.phi_k), dict(head.value), {})
    for q, (w, b) in head.readout.items():
        out.readout[q] = (tuple(x + scale * ((q * 7 + i * 3) % 5 - 2) for i, x in enumerate(w)), b)
    return out


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.data())
def test_extreme_class_route_is_the_literal_listing(m, data):
    # THEORY §1: every position of every input is a (query, multiset) pair; the extreme-class
    # inputs (q, a, b^(n-2)) decide them all.  Both routes of Family.all against listing.
    n = data.draw(st.integers(1, 4 if m <= 2 else 3))  # at most 512 listed inputs
    head = data.draw(testing.nonnegative_heads(m, data.draw(st.integers(1, 3)), dv=2))
    literal = evaluate_family(head, listed_all(m, n), exact=True)
    for exact in (True, False):
        fast = evaluate_family(head, Family.all(m, n), exact=exact)
        assert fast.worst_error == literal.worst_error
        assert fast.solves == literal.solves
        assert (fast.worst_input is None) == (literal.worst_error is None) or fast.worst_input.error == literal.worst_error


@pytest.mark.parametrize("name", ["m04-n3-r2.json", "m05-n4-r3.json", "m06-n3-r10.json"])
@pytest.mark.parametrize("exact", [True, False])  # the exact route at m = 6 takes about 6 s
def test_committed_heads_solve_every_input_with_the_generators_worst_error(name, exact):
    explicit = from_tables(json.loads((HEADS / name).read_text()))
    result = kb.evaluate(table_head(explicit), Family.all(explicit.m, explicit.n), exact=exact)
    assert result.solves and result.worst_error == worst_error(explicit)[0]
    assert result.worst_input.error == result.worst_error and result.worst_input.position == 1


@pytest.mark.parametrize("scale", [Fraction(1, 200), Fraction(1, 50), Fraction(1, 10)])
def test_near_the_boundary_the_float_route_decides_as_the_exact_one(scale):
    explicit = from_tables(json.loads((HEADS / "m04-n3-r2.json").read_text()))
    head = perturbed(table_head(explicit), scale)
    a = evaluate_family(head, Family.all(4, 3), exact=True)
    b = evaluate_family(head, Family.all(4, 3), exact=False)
    literal = evaluate_family(head, listed_all(4, 3), exact=False)
    assert a.worst_error == b.worst_error == literal.worst_error
    assert a.failures == b.failures and a.solves == b.solves == literal.solves
    assert a.first_failure == b.first_failure
    if not a.solves:
        assert a.first_failure.error >= Fraction(1, 2) or a.first_failure.output is None


def test_a_solving_head_becomes_a_certificate_the_checker_accepts(tmp_path):
    explicit = from_tables(json.loads((HEADS / "m05-n3-r3.json").read_text()))
    result = kb.evaluate(table_head(explicit), kb.Family.all(5, 3))
    verdict = kb.check(result.to_certificate())
    assert verdict.ok and "solves Min-IP at every position of every length-3 input on 5 bits" in verdict.summary


def test_a_failing_head_gets_its_worst_input_and_the_l1_explanation():
    # rank 1 cannot solve n = 3 (THEORY U5: r*(4, 3) = 2); the worst input fails, and L1 says why
    m = 4
    bits = np.array([[(x >> i) & 1 for i in range(m)] for x in range(2**m)])
    head = kb.Head.from_arrays(np.ones((16, 1)), np.ones((16, 1)), bits, (2 * bits, -bits.sum(axis=1)))
    result = kb.evaluate(head, kb.Family.all(m, 3))
    assert not result.solves and result.worst_input.error == result.worst_error >= Fraction(1, 2)
    assert result.first_failure is not None and result.l1_violations and "L1 at query" in result.l1_violations[0]
    assert "solves=False" in repr(result) and "first_failure='position 1 of" in repr(result)
    with pytest.raises(ValueError, match="does not solve"):
        result.to_certificate()


def test_family_all_is_counted_not_listed():
    fam = kb.Family.all(12, 8)
    assert fam.size == 2**96 and fam.positions() == list(range(1, 9)) and fam.tokens() == list(range(4096))
    assert repr(fam) == "Family.all(m=12, n=8)"
    with pytest.raises(FamilyError, match="m must be"):
        kb.Family.all(0, 3)
    assert kb.Family.all(2, 2).inputs() == list(product(range(4), repeat=2))


def test_a_head_for_other_m_names_both():
    head = kb.Head.from_arrays(np.ones((16, 1)), np.ones((16, 1)), np.zeros((16, 1)), (np.zeros((16, 1)), np.zeros(16)))
    with pytest.raises(HeadError, match="m = 4 bits but the family's have m = 24"):
        kb.evaluate(head, str(ROOT / "certificates" / "witness-m24-n3-r8.json"))
    with pytest.raises(HeadError, match="all 2\\^5 tokens"):
        evaluate_family(TableHead(5, {0: (1,)}, {0: (1,)}, {0: (0,)}, {0: ((0,), 0)}), Family.all(5, 2))


def test_cli_all_writes_a_certificate_or_prints_the_worst_input(tmp_path):
    import subprocess
    import sys

    def run(*args):
        return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=ROOT)

    explicit = from_tables(json.loads((HEADS / "m05-n3-r3.json").read_text()))
    good, cert = tmp_path / "good.json", tmp_path / "cert.json"
    good.write_text(json.dumps(table_head(explicit).to_json()))
    r = run("evaluate", "--all", "--m", "5", "--n", "3", "--head", str(good), "-o", str(cert))
    assert r.returncode == 0 and "solves" in r.stdout and "worst input: position 1 of" in r.stdout
    assert run("check", str(cert)).returncode == 0
    # the same head at n = 4 fails: exit 1, the worst input and the L1 explanation, and no file
    cert4 = tmp_path / "cert4.json"
    r = run("evaluate", "--all", "--m", "5", "--n", "4", "--head", str(good), "-o", str(cert4))
    assert r.returncode == 1 and "FAILS" in r.stdout and "worst input: position 1 of" in r.stdout and "L1 at query" in r.stdout
    assert "no certificate written" in r.stderr and not cert4.exists()
    # usage: -o needs --all; a head of other m names both m's
    assert run("evaluate", "--family", "certificates/witness-m24-n3-r8.json", "--head", str(good), "-o", str(cert4)).returncode == 2
    r = run("evaluate", "--all", "--m", "6", "--n", "3", "--head", str(good))
    assert r.returncode == 2 and "m = 5 bits but the family's have m = 6" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("m, n", [(3, 3), (4, 2), (3, 4)])
def test_errors_of_exactly_one_half_fail_on_both_routes(m, n):
    # y = 1/2 everywhere: error exactly 1/2 at least level 0 and 1 (fails), 3/2 above; every
    # class at the boundary is left to the integers by the float enclosures
    T = 2**m
    head = kb.Head.from_arrays(np.ones((T, 1)), np.ones((T, 1)), np.ones((T, 1)), (np.full((T, 1), 0.5), np.zeros(T)))
    exact, fast = (evaluate_family(head, Family.all(m, n), exact=e) for e in (True, False))
    literal = evaluate_family(head, listed_all(m, n), exact=True)
    classes = sum(q.bit_count() + 1 for q in range(T))
    assert exact.failures == fast.failures == classes and not literal.solves
    assert exact.worst_error == fast.worst_error == literal.worst_error == Fraction(m) - Fraction(1, 2)
    assert fast.first_failure == exact.first_failure and fast.first_failure.error == Fraction(1, 2)
