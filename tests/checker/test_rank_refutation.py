"""Kind `rank-refutation` (THEORY §2 U7): the checker rebuilds the chirotope CNF and replays
a clausal proof (LRAT with hints, or DRAT restricted to RUP steps)."""

import json
import shutil
from itertools import combinations
from pathlib import Path

import pytest
from helpers import verdict
from hypothesis import given, strategies as st

from kernelbounds.checker import clausal
from kernelbounds.checker.errors import Invalid, Malformed
from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.rules.rankrefutation import _parity, build_cnf
from kernelbounds.lowerbounds import chirotope, refutation

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"


def _doc(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


M5 = "refutation-position-independent-m05-n3-r2.json"
M6 = "refutation-position-independent-m06-n3-r3.json"


def _drat_m5() -> dict:
    """The m = 5 core with CaDiCaL's raw DRAT proof, deletions included (a corpus file, so
    the checker's tests need no solver)."""
    return json.loads((ROOT / "tests" / "corpus" / "correct" / "rank-refutation-drat-m5-n3.json").read_text())


def test_committed_refutations_are_valid_and_claim_r_plus_one():
    for name, value in ((M5, 3), (M6, 4)):
        v = verdict(_doc(name))
        assert v.ok, v.render()
        assert v.claim == {"side": "lower", "value": value, "m": value + 2, "n": 3, "variants": ["position-independent"], "kernels": ["nonnegative", "signed"]}
    v = verdict(_doc("refutation-position-dependent-m06-n3-r3.json"))
    assert v.ok and v.claim["variants"] == ["position-dependent", "position-independent"]


def test_m6_counts_match_theory():
    doc = _doc(M6)
    assert doc["claims"]["variables"] == 84 and doc["claims"]["clauses"] == 10435 and doc["claims"]["bound"] == 4


@pytest.mark.parametrize("form", ["lrat", "drat"])
def test_truncated_proof_is_rejected(form):
    doc = _doc(M6) if form == "lrat" else _drat_m5()
    doc["proof"]["steps"] = doc["proof"]["steps"][:-1]
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/proof/steps" and "without the empty clause" in v.reason


@pytest.mark.parametrize("form", ["lrat", "drat"])
def test_proof_of_a_different_cnf_is_rejected(form):
    """The m = 5 proof against the CNF without its last pair (counts adjusted)."""
    doc = _doc(M5) if form == "lrat" else _drat_m5()
    ref = refutation.refute(5, 3, 2)
    doc["pairs"] = doc["pairs"][:-1]
    enc = chirotope.encode(ref.queries, ref.pairs[:-1], 2)
    doc["claims"]["clauses"] = len(enc.clauses)
    doc["claims"]["witness_inputs"] = len(refutation.Refutation(5, 3, "position-independent", 2, ref.queries, ref.pairs[:-1], ()).witness_inputs)
    v = verdict(doc)
    assert v.code == 1 and v.pointer.startswith("/proof/steps"), v.render()


def test_lemma_that_is_not_rup_is_rejected_lrat():
    doc = _doc(M6)
    ident, *rest = doc["proof"]["steps"][5].split()
    cut = rest.index("0")
    doc["proof"]["steps"][5] = " ".join([ident, *rest[: cut + 1], *rest[cut + 2:]])  # drop the first hint
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/proof/steps/5"


def _naive_rup(clauses, lemma) -> bool:
    """Unit propagation by repeated full passes (an independent oracle)."""
    value = {-x: True for x in lemma}
    if any(value.get(x) for x in lemma):
        return True
    changed = True
    while changed:
        changed = False
        for c in clauses:
            if any(value.get(x) for x in c):
                continue
            free = [x for x in c if not value.get(-x)]
            if not free:
                return True
            if len(free) == 1:
                value[free[0]] = True
                changed = True
    return False


@given(st.lists(st.integers(-10, 10).filter(bool), min_size=1, max_size=4, unique_by=abs))
def test_drat_rup_agrees_with_naive_propagation(lemma):
    """On the m = 5 CNF (10 variables): the first DRAT step is accepted as a lemma iff naive
    unit propagation refutes its negation."""
    ref = refutation.refute(5, 3, 2)
    k = len(ref.queries)
    variables, clauses = build_cnf(k, 2, [chirotope.pattern(ref.queries, a, b) for a, b in ref.pairs])
    db = clausal.Replay(variables)
    for c in clauses:
        db.add(c)
    assert db.rup(tuple(lemma)) == _naive_rup(clauses, lemma)


def test_drat_form_non_rup_lemma_and_unknown_deletion():
    doc = _drat_m5()
    doc["proof"]["steps"].insert(0, "d 1 2 3 4 5 6 7 8 9 10 0")  # an unknown clause: ignored
    v = verdict(doc)
    assert v.ok and "1 ignored" in v.routes[2], v.render()
    doc["proof"]["steps"].insert(0, "-1 0")  # the negation of the normalisation unit: not RUP
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/proof/steps/0"


def test_satisfiable_formula_is_rejected():
    """m = 4 at r = 2 is satisfiable (THEORY U7's sanity check), so no proof can pass."""
    q4 = refutation.weight_queries(4, 2)
    p4 = refutation.useful_pairs(4, q4, 2)
    enc = chirotope.encode(q4, p4, 2)
    doc = refutation.Refutation(4, 3, "position-independent", 2, tuple(q4), tuple(p4), (f"{len(enc.clauses) + 1} 0 1 0",), {"name": "none", "version": "0"}).certificate()
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/proof/steps/0"
    doc["proof"] = {"format": "drat-rup", "steps": ["0"]}
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/proof/steps/0"
    # and indeed satisfiable: a brute-force model of the checker's CNF
    variables, clauses = build_cnf(len(q4), 2, [chirotope.pattern(q4, a, b) for a, b in p4])
    assert variables == 15
    assert any(all(any((bits >> (abs(x) - 1) & 1) == (x > 0) for x in c) for c in clauses) for bits in range(1 << variables))


def test_any_denominator_kernel_is_refused_and_nonnegative_claims_less():
    doc = _doc(M5)
    doc["kernel"] = "signed-any-denominator"
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/kernel" and "L8 (b)" in v.reason
    doc["kernel"] = "nonnegative"
    v = verdict(doc)
    assert v.ok and v.claim["kernels"] == ["nonnegative"] and "nonnegative kernel" in v.summary


def test_queries_out_of_order_and_useless_pair_are_invalid():
    doc = _doc(M5)
    doc["queries"][0], doc["queries"][1] = doc["queries"][1], doc["queries"][0]
    assert verdict(doc).pointer in ("/queries/1",)
    doc = _doc(M5)
    doc["pairs"].append({"a": "00000", "b": "00001"})
    v = verdict(doc)
    assert v.code == 1 and v.pointer == f"/pairs/{len(doc['pairs']) - 1}"


def test_work_is_bounded_before_the_check():
    doc = _doc(M6)
    doc["proof"]["format"] = "drat-rup"  # the watched-literal worst case of 2,100 lemmas is over the budget
    doc["proof"]["steps"] = doc["proof"]["steps"] * 2
    v = verdict(doc)
    assert v.code == 3 and v.pointer == "" and "work estimate" in v.reason
    doc = _doc(M5)
    doc["proof"]["steps"] = ["1 " * 40000 + "0"] * 30
    v = verdict(doc)
    assert v.code in (2, 3)


def test_lrat_parser_rejects_rat_and_bad_lines():
    for line in ("12 1 0 -3 0", "x 0 0", "12 1 2 0"):
        with pytest.raises(Malformed):
            clausal.parse_lrat(Node([line], "/s"), 10, 10)
    with pytest.raises(Invalid):
        clausal.check_lrat([(1,), (-1,)], [(3, False, (), (5,))], "/s")  # a missing hint id
    assert clausal.check_lrat([(1,), (-1,)], [(3, False, (), (1, 2))], "/s")["lemmas"] == 1


# ---------------------------------------------------------------- soundness of the encoding


def _det(rows):
    """Exact determinant by Laplace expansion (r <= 4)."""
    if len(rows) == 1:
        return rows[0][0]
    return sum((-1) ** j * rows[0][j] * _det([row[:j] + row[j + 1:] for row in rows[1:]]) for j in range(len(rows)))


@given(st.data())
def test_realised_configurations_satisfy_every_clause(data):
    """Integer x_q in Z^r (moved into general position by a dominant Vandermonde-free
    perturbation: x_q * N + (1, t, t^2, ...)), y in Z^r per pair, signs s_q = sign <x_q, y>:
    the chirotope chi(T) = sign det(x_T), reflected so that chi(first r) = +, satisfies
    every clause of the checker's CNF."""
    r = data.draw(st.integers(2, 3))
    k = data.draw(st.integers(r + 2, 7))
    base = [data.draw(st.lists(st.integers(-3, 3), min_size=r, max_size=r)) for _ in range(k)]
    big = 10**6
    xs = [[big * base[q][i] + (q + 1) ** i for i in range(r)] for q in range(k)]
    if _det([xs[i] for i in range(r)]) < 0:  # a reflection: negate the first coordinate
        xs = [[-x[0]] + x[1:] for x in xs]
        flip = True
    else:
        flip = False
    chi = {T: _det([xs[i] for i in T]) for T in combinations(range(k), r)}
    assert all(chi.values())  # general position (the perturbation guarantees it)
    patterns = []
    for _ in range(data.draw(st.integers(1, 4))):
        y = data.draw(st.lists(st.integers(-4, 4), min_size=r, max_size=r))
        y = [-y[0]] + y[1:] if flip else y
        dots = [sum(a * b for a, b in zip(x, y, strict=True)) for x in xs]
        patterns.append(tuple((d > 0) - (d < 0) for d in dots))
    variables, clauses = build_cnf(k, r, patterns)
    assign = {i + 1: chi[T] > 0 for i, T in enumerate(combinations(range(k), r))}
    for c in clauses:
        assert any(assign[abs(x)] == (x > 0) for x in c), c


def test_parity_is_the_sign_of_the_sorting_permutation():
    assert _parity((0, 1, 2)) == 1 and _parity((1, 0, 2)) == -1 and _parity((2, 0, 1)) == 1 and _parity((3, 2, 1, 0)) == 1


@pytest.mark.slow  # about 40 s: 1.24 M relation clauses built in Python
@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not installed")
def test_m5_rank3_with_weights_two_and_three_is_satisfiable():
    """THEORY U7's sanity check: m = 5, r = 3 on the 20 queries of weights 2 and 3 is SAT
    (the checker's CNF, solved by CaDiCaL)."""
    queries = sorted(q for q in range(32) if bin(q).count("1") in (2, 3))
    pairs = refutation.useful_pairs(5, queries, 3)
    variables, clauses = build_cnf(len(queries), 3, [chirotope.pattern(queries, a, b) for a, b in pairs])
    text = f"p cnf {variables} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    assert not refutation.solve(text).unsat
