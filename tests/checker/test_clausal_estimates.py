"""The rank-refutation work estimate bounds the real work for every proof shape
(docs/soundness.md, "Work estimate"): many copies of a unit lemma then many deletions of it,
deletion lines listing every variable, many short lines, the CNF build at larger rank, LRAT
deletion lines.  Each shape's estimate (10^7 units a second) is at least the measured CPU
time of the check and not absurdly more."""

import json
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from kernelbounds.bits import to_str
from kernelbounds.checker import Limits, check_bytes, clausal
from kernelbounds.checker.jsonread import Node, parse_json
from kernelbounds.checker.rules import rankrefutation_work
from kernelbounds.lowerbounds import refutation

ROOT = Path(__file__).resolve().parents[2]
DRAT_M5 = ROOT / "tests" / "corpus" / "correct" / "rank-refutation-drat-m5-n3.json"


def _drat_m5() -> dict:
    return json.loads(DRAT_M5.read_text())


def _generated(m: int, r: int) -> tuple[dict, int]:
    """A rank-refutation document over the weight-2 queries of m bits and the generator's
    pairs (claims counted by the generator's own encoder), with an empty DRAT proof; and
    its number of variables."""
    from kernelbounds.lowerbounds import chirotope

    queries = refutation.weight_queries(m, 2)
    pairs = refutation.useful_pairs(m, queries, r)
    enc = chirotope.encode(queries, pairs, r)
    doc = {
        "format": "kernelbounds-certificate", "version": 2, "kind": "rank-refutation", "m": m, "n": 3, "variant": "position-independent",
        "kernel": "signed", "rank": r, "queries": [to_str(q, m) for q in queries], "pairs": [{"a": to_str(a, m), "b": to_str(b, m)} for a, b in pairs],
        "solver": {"name": "test", "version": "0"}, "proof": {"format": "drat-rup", "steps": []},
        "claims": {"bound": r + 1, "variables": enc.variables, "clauses": len(enc.clauses), "witness_inputs": 0},
    }
    return doc, enc.variables


def _estimate_and_seconds(doc: dict):
    data = json.dumps(doc).encode()
    units = rankrefutation_work.work(Node(parse_json(data)), Limits())
    start = time.process_time()
    verdict = check_bytes(data, limits=Limits(work_budget=10**13, max_list=10**7), guard=False)
    return units, time.process_time() - start, verdict


def _within(units: int, seconds: float) -> None:
    assert units / 10**7 >= seconds, (units, seconds)
    assert units / 10**7 <= 40 * seconds + 0.5, (units, seconds)


@pytest.mark.parametrize("copies,deletions", [(200, 100_000), (1, 150_000)])
def test_unit_lemma_copies_then_deletions(copies, deletions):
    """A valid file with a true claim: L copies of the unit lemma 1 (true at the top level),
    D deletions of it (each ignored: a unit is never live), then the real proof."""
    doc = _drat_m5()
    proof = doc["proof"]["steps"]
    own = sum(1 for s in proof if s.startswith("d"))
    doc["proof"]["steps"] = ["1 0"] * copies + ["d 1 0"] * deletions + proof
    units, seconds, verdict = _estimate_and_seconds(doc)
    assert verdict.ok, verdict.render()
    assert f"{copies + len(proof) - own} lemmas, {deletions + own} deletions" in " ".join(verdict.routes)
    _within(units, seconds)


def test_deletion_lines_listing_every_variable():
    """k = 10 queries, r = 4: 210 variables; 600 deletion lines naming all of them (each
    ignored), then no empty clause (invalid, after the whole replay)."""
    doc, variables = _generated(5, 4)
    line = "d " + " ".join(str(v if v % 2 else -v) for v in range(1, variables + 1)) + " 0"
    doc["proof"]["steps"] = [line] * 600
    units, seconds, verdict = _estimate_and_seconds(doc)
    assert verdict.code == 1 and "without the empty clause" in verdict.reason
    _within(units, seconds)


def test_cnf_build_at_rank_five():
    """k = 10, r = 5: 67,200 relation clauses whose six r-tuples are sorted and signed."""
    doc, _ = _generated(5, 5)
    units, seconds, verdict = _estimate_and_seconds(doc)
    assert verdict.code == 1 and "without the empty clause" in verdict.reason
    _within(units, seconds)


def test_lrat_deletion_lines():
    """LRAT: 150,000 deletion lines of unknown ids before the committed m = 5 proof."""
    doc = json.loads((ROOT / "certificates" / "refutation-position-independent-m05-n3-r2.json").read_text())
    steps = doc["proof"]["steps"]
    first = int(steps[0].split()[0])
    doc["proof"]["steps"] = [f"{first - 1} d 99999 0"] * 150_000 + steps
    units, seconds, verdict = _estimate_and_seconds(doc)
    assert verdict.ok, verdict.render()
    _within(units, seconds)


def _naive_proper(lits) -> bool:
    return all(lits[i] != lits[j] and lits[i] != -lits[j] for i in range(len(lits)) for j in range(i + 1, len(lits)))


@given(st.lists(st.integers(-30, 30).filter(bool), max_size=40))
def test_linear_tautology_test_agrees_with_the_pairwise_definition(lits):
    assert clausal.proper(lits) == _naive_proper(lits)


@given(st.integers(1, 30), st.integers(0, 30), st.integers(1, 5))
def test_a_deletion_takes_one_live_copy_and_ignores_units(copies, deletions, size):
    """Copies of one clause of `size` literals (no top-level assignment makes it a reason:
    variable 1 is set by a unit and the clause contains the literal 1, which is satisfied
    only when size > 1; a unit is never live): each deletion removes one copy while a
    copy is live, and is ignored after that, or always for a unit."""
    db = clausal.Replay(10)
    db.add((1,))
    clause = tuple(range(1, size + 1))
    for _ in range(copies):
        db.add(clause)
    for _ in range(deletions):
        db.delete(clause)
    live = [c for c in db.clauses if c is not None]
    removed = 0 if size == 1 else min(copies, deletions)
    assert len(live) == (0 if size == 1 else copies - removed)
    assert db.ignored == deletions - removed


def _old_words(text: str):
    """The definition: words separated by ASCII spaces, each the letter d or an ASCII
    decimal integer (the per-word reading the one-pass match replaced)."""
    words = [w for w in text.split(" ") if w]
    return words if all(clausal.TOKEN.fullmatch(w) for w in words) else None


@given(st.text(alphabet=" d-0123456789x\t_", max_size=30))
def test_the_one_pass_line_match_reads_exactly_the_definition(text):
    from kernelbounds.checker.errors import Malformed

    try:
        got = clausal.split_step(Node(text))[1]
    except Malformed:
        got = None
    assert got == _old_words(text)


@pytest.mark.parametrize("text", [" " * 99_999 + "x", "1 " * 33_333 + " " * 33_333 + "x", "1" * 50_000 + " " * 49_999 + "x"])
def test_a_long_bad_line_is_refused_in_linear_time(text):
    from kernelbounds.checker.errors import Malformed

    start = time.process_time()
    with pytest.raises(Malformed):
        clausal.split_step(Node(text))
    assert time.process_time() - start < 0.5
