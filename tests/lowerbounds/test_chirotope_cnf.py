"""The generator's chirotope CNF (lowerbounds/chirotope.py) against the checker's own builder,
the stored proofs, and regeneration (THEORY §2 U7)."""

import json
import shutil
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from kernelbounds import sources
from kernelbounds.certificate import canonical_json
from kernelbounds.checker.rules.rankrefutation import _pattern, build_cnf
from kernelbounds.lowerbounds import chirotope, refutation, trimming

ROOT = Path(__file__).resolve().parents[2]
HAVE_CADICAL = shutil.which("cadical") is not None


@given(st.data())
def test_generator_cnf_equals_the_checkers_clause_for_clause(data):
    """Same variables, same clauses, same order (LRAT ids depend on it), on random query
    sets and key pairs at m = 4..6, r = 2..3."""
    m = data.draw(st.integers(4, 6))
    r = data.draw(st.integers(2, 3))
    queries = sorted(data.draw(st.sets(st.integers(1, 2**m - 1), min_size=r + 1, max_size=7)))
    pairs = [(a, a ^ d) for a, d in data.draw(st.lists(st.tuples(st.integers(0, 2**m - 1), st.integers(1, 2**m - 1)), min_size=1, max_size=6))]
    enc = chirotope.encode(queries, pairs, r)
    patterns = [_pattern(queries, a, b, 3) for a, b in pairs]
    variables, clauses = build_cnf(len(queries), r, patterns)
    assert enc.variables == variables
    assert enc.clauses == clauses


def test_forced_signs_agree():
    for q, a, b in combinations(range(16), 3):
        assert chirotope.pattern([q], a, b) == _pattern([q], a, b, 3)


@pytest.mark.skipif(not HAVE_CADICAL, reason="cadical not installed")
def test_m4_rank2_is_satisfiable_and_m5_rank2_is_not():
    for m, unsat in ((4, False), (5, True)):
        queries = refutation.weight_queries(m, 2)
        assert refutation.is_unsat(queries, refutation.useful_pairs(m, queries, 2), 2).unsat == unsat


def test_trimming_keeps_a_proof_the_checker_accepts():
    """The stored m = 5 record's LRAT lines are a trimmed proof; trimming a DRAT proof
    made of every lemma RUP gives LRAT lines whose last lemma is the empty clause."""
    rec = refutation.stored(5, 2)
    ref = refutation.from_record(rec, 3, "position-independent")
    enc = ref.encoding
    lines = trimming.trim(enc.variables, enc.clauses, [" ".join(s.split()[1:s.split().index("0") + 1]) for s in ref.proof])
    assert lines == list(ref.proof)
    assert lines[-1].split()[1] == "0"


def test_committed_files_regenerate_byte_identically_from_the_store():
    entries = sources.get("refutations").entries() + sources.get("extensions").entries()
    assert len(entries) == 36 + 3 + 18  # m = 5, 6 (n = 3..8, three variants), the direct m = 8 (n = 3), the extensions
    for entry in entries[:1] + entries[18:19] + entries[36:37] + entries[-1:]:
        assert (ROOT / "certificates" / entry.filename).read_bytes() == canonical_json(entry.build()).encode()


@pytest.mark.skipif(not HAVE_CADICAL, reason="cadical not installed")
def test_stored_m5_core_is_what_the_solver_finds_now():
    rec = refutation.stored(5, 2)
    if rec["solver"]["version"] != refutation.solver_version():
        pytest.skip("another CaDiCaL version: its proof may differ")
    fresh = refutation.search(5, 2)
    assert json.dumps(fresh, sort_keys=True) == json.dumps(rec, sort_keys=True)


@pytest.mark.skipif(not HAVE_CADICAL, reason="cadical not installed")
def test_the_checker_accepts_the_installed_solvers_raw_drat_proof():
    """The committed m = 5 core with the DRAT proof (deletions included) that the installed
    CaDiCaL writes now, untrimmed: the checker's DRAT-RUP route accepts it."""
    from kernelbounds.checker import check_bytes

    doc = json.loads((ROOT / "certificates" / "refutation-position-independent-m05-n3-r2.json").read_text())
    ref = refutation.refute(5, 3, 2)
    doc["proof"] = {"format": "drat-rup", "steps": refutation.solve(chirotope.dimacs(ref.encoding)).proof}
    v = check_bytes(canonical_json(doc).encode(), "drat", guard=False)
    assert v.ok and v.claim["value"] == 3, v.render()
