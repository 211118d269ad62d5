"""The independent spec oracle for `orthant` and `crossing` (lab/spec_oracle_signrank.py):
it accepts every committed file, rejects one hand-made false file per rule, and its
combinatorial facts are THEORY's (L7 coverage, U6 cyclicity at m = 5)."""

from __future__ import annotations

import copy
import json
from itertools import combinations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab import spec_oracle_signrank as so


@pytest.fixture(autouse=True)
def in_process(monkeypatch):
    """Check in process: the runtime guard forks once per check (about 70 ms each) and only
    bounds CPU time and memory, which its own tests cover (tests/checker/test_guard_and_valid_lines.py)."""
    import lab.fuzz

    monkeypatch.setattr(lab.fuzz, "GUARD", False)

CERTS = Path(__file__).resolve().parents[2] / "certificates"
FILES = sorted(CERTS.glob("orthant-*.json")) + sorted(CERTS.glob("crossing-*.json"))
THEORY_PAIRS = [("00110", "11001"), ("01001", "10110"), ("01100", "10011"), ("01101", "10010"), ("01110", "10001")]


def load(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_accepts_every_committed_file(path):
    assert so.judge(json.loads(path.read_text())) is True


def test_committed_files_exist():
    assert len([p for p in FILES if p.name.startswith("orthant")]) >= 1
    assert len([p for p in FILES if p.name.startswith("crossing")]) >= 1


def listed_orthant(m=4, n=3, variant="position-independent") -> dict:
    """The rule form at m written out as a listed family (q_0 = 1100, q_1 = 0011)."""
    queries, pairs = so.disjoint_pairs(m)
    doc = {"format": "kernelbounds-certificate", "version": 2, "kind": "orthant", "m": m, "n": n, "variant": variant,
           "family": {"queries": queries, "pairs": pairs}, "claims": {"bound": len(queries), "witness_inputs": 0}}
    wit = set()
    for p in pairs:
        for q in queries:
            wit |= so.family_inputs(q, p["a"], p["b"], n, variant)
    doc["claims"]["witness_inputs"] = len(wit)
    return doc


def test_listed_form_equals_rule_form():
    doc = listed_orthant(8)
    assert so.judge(doc) is True
    assert doc["claims"]["witness_inputs"] == 96  # THEORY L7: 3 t 2^(t-1) at m = 8


def mutate(doc, fn):
    doc = copy.deepcopy(doc)
    fn(doc)
    return doc


ORTHANT_FALSE = {
    "version 1": lambda d: d.update(version=1),
    "n = 2 (L1 needs n >= 3)": lambda d: d.update(n=2),
    "OR0 a pair dropped": lambda d: d["family"]["pairs"].pop(),
    "OR0 a == b": lambda d: d["family"]["pairs"][0].update(b=d["family"]["pairs"][0]["a"]),
    "OR0 a repeated query": lambda d: d["family"]["queries"].__setitem__(1, d["family"]["queries"][0]),
    "OR1 a query not forced (d = 1)": lambda d: d["family"]["pairs"][0].update(a="1000"),
    "OR1 a wrong pattern": lambda d: d["family"]["pairs"][0].update(pattern="+-"[::-1] if d["family"]["pairs"][0]["pattern"] == "++" else "++"),
    "OR1 a malformed pattern": lambda d: d["family"]["pairs"][0].update(pattern="+"),
    "OR2 a class repeated": lambda d: d["family"]["pairs"].__setitem__(1, {"a": "0011", "b": "1100", "pattern": "-+"}),
    "OR3 bound one more": lambda d: d["claims"].update(bound=3),
    "OR4 witness count off by one": lambda d: d["claims"].update(witness_inputs=d["claims"]["witness_inputs"] + 1),
    "unknown field": lambda d: d.update(extra=0),
}


@pytest.mark.parametrize("rule", sorted(ORTHANT_FALSE))
def test_rejects_false_orthant(rule):
    base = listed_orthant(4)
    assert so.judge(base) is True
    assert so.judge(mutate(base, ORTHANT_FALSE[rule])) is False


def test_or2_repeated_class_is_a_real_gap():
    """The mutant of OR2 keeps 2^(t-1) pairs, every sign forced and its pattern right,
    but the sign vector (+,-) is realised by no pair: L7's premise fails."""
    doc = mutate(listed_orthant(4), ORTHANT_FALSE["OR2 a class repeated"])
    pats = {p["pattern"] for p in doc["family"]["pairs"]}
    assert pats == {"+-", "-+"} and "++" not in pats | {so.negate(p) for p in pats}


def test_orthant_rule_form_false_claims():
    doc = load("orthant-position-independent-m08-n3.json")
    assert so.judge(mutate(doc, lambda d: d.update(m=3))) is False  # t = 1 but bound 4
    assert so.judge(mutate(doc, lambda d: d["family"].update(rule="other"))) is False
    assert so.judge(mutate(doc, lambda d: d.update(variant="position-dependent"))) is False  # |W| = 128, not 96


@settings(max_examples=40, deadline=None)
@given(m=st.integers(2, 13), n=st.integers(3, 7), variant=st.sampled_from(so.VARIANTS))
def test_rule_form_bound_and_family_size(m, n, variant):
    """THEORY L7: t = floor(m/2), |W| = 3 t 2^(t-1) ((n+1) t 2^(t-1) position-dependent),
    and one more than t is not the claim."""
    t = m // 2
    size = (n + 1 if variant == "position-dependent" else 3) * t * 2 ** (t - 1)
    doc = {"format": "kernelbounds-certificate", "version": 2, "kind": "orthant", "m": m, "n": n, "variant": variant,
           "family": {"rule": "disjoint-pairs"}, "claims": {"bound": t, "witness_inputs": size}}
    assert so.judge(doc) is True
    assert so.judge(mutate(doc, lambda d: d["claims"].update(bound=t + 1))) is False


@settings(max_examples=30, deadline=None)
@given(t=st.integers(2, 7), data=st.data())
def test_coverage_fails_when_a_pair_is_replaced(t, data):
    """Replacing pair e by a copy of another pair f (e != f) always leaves the sign classes
    of e uncovered: 2^(t-1) pairs cover {+,-}^t only with distinct classes."""
    queries, pairs = so.disjoint_pairs(2 * t)
    e, f = data.draw(st.lists(st.integers(0, len(pairs) - 1), min_size=2, max_size=2, unique=True))
    pairs[e] = dict(pairs[f])
    seen = {p["pattern"] for p in pairs} | {so.negate(p["pattern"]) for p in pairs}
    assert len(seen) == 2**t - 2


# ----------------------------------------------------------------- crossing

TOKENS5 = ["".join(b) for b in product("01", repeat=5)]


def test_theory_u6_five_pairs_every_choice_cyclic_and_no_four_suffice():
    sets = [so.forced_sets(a, b, TOKENS5, 3) for a, b in THEORY_PAIRS]
    assert all(so.has_cycle(so.precedence_graph(sets, c)) for c in range(32))
    assert sum(len(p | n) for p, n in sets) == 35 and len(set().union(*[p | n for p, n in sets])) == 20
    for sub in combinations(sets, 4):
        assert not all(so.has_cycle(so.precedence_graph(list(sub), c)) for c in range(16))


def test_has_cycle_small_graphs():
    assert so.has_cycle({1: [2], 2: [1]})
    assert not so.has_cycle({1: [2], 2: [3], 3: []})
    assert so.has_cycle({1: [1]})
    assert not so.has_cycle({1: [2, 3], 2: [3], 3: []})


def swap_pairs(steps):
    steps[0]["pair"], steps[1]["pair"] = steps[1]["pair"], steps[0]["pair"]


def drop_pair(d, e=0):
    """A crossing document with pair e removed: the walks are reindexed and halved."""
    k = len(d["pairs"])
    d["pairs"].pop(e)
    d["claims"]["forced"].pop(e)
    d["cycles"] = d["cycles"][: 2 ** (k - 1)]


CROSSING_FALSE = {
    "version 1": lambda d: d.update(version=1),
    "CR0 k = 0": lambda d: (d.update(pairs=[], cycles=[{"steps": []}]), d["claims"].update(forced=[])),
    "CR0 a == b": lambda d: d["pairs"][0].update(b=d["pairs"][0]["a"]),
    "CR0 a pair twice (swapped)": lambda d: d["pairs"].__setitem__(1, {"a": d["pairs"][0]["b"], "b": d["pairs"][0]["a"]}),
    "CR0 a cycle missing": lambda d: d["cycles"].pop(),
    "CR0 pair index out of range": lambda d: d["cycles"][0]["steps"][0].update(pair=len(d["pairs"])),
    "CR1 positive count": lambda d: d["claims"]["forced"][0].update(positive=d["claims"]["forced"][0]["positive"] + 1),
    "CR1 negative count": lambda d: d["claims"]["forced"][2].update(negative=0),
    "CR2 a walk of one step": lambda d: d["cycles"][3].update(steps=d["cycles"][3]["steps"][:1]),
    "CR2 a step in the wrong direction": lambda d: d["cycles"].__setitem__(0, d["cycles"][1 if d["cycles"][1] != d["cycles"][0] else 2]),
    "CR2 a walk's pair indices swapped": lambda d: swap_pairs(d["cycles"][5]["steps"]),
    "CR2 a pair dropped (an acyclic choice)": drop_pair,
    "CR3 bound 4": lambda d: d["claims"].update(bound=4),
    "CR4 witness count": lambda d: d["claims"].update(witness_inputs=d["claims"]["witness_inputs"] - 1),
    "CR4 variant changed": lambda d: d.update(variant="position-dependent"),
}


@pytest.mark.parametrize("rule", sorted(CROSSING_FALSE))
def test_rejects_false_crossing(rule):
    base = load("crossing-position-independent-m05-n3.json")
    assert so.judge(base) is True
    assert so.judge(mutate(base, CROSSING_FALSE[rule])) is False


def test_dropping_any_pair_leaves_an_acyclic_choice():
    """The committed five pairs are a core: with any one removed, some direction choice
    has no cycle in the precedence graph (judged without the listed walks)."""
    base = load("crossing-position-independent-m05-n3.json")
    pairs = [(p["a"], p["b"]) for p in base["pairs"]]
    for e in range(5):
        sets = [so.forced_sets(a, b, TOKENS5, 3) for i, (a, b) in enumerate(pairs) if i != e]
        assert not all(so.has_cycle(so.precedence_graph(sets, c)) for c in range(16))


def test_forced_sets_are_swapped_by_swapping_the_pair():
    for a, b in THEORY_PAIRS:
        p, n = so.forced_sets(a, b, TOKENS5, 3)
        assert so.forced_sets(b, a, TOKENS5, 3) == (n, p)
        assert not p & n


# ----------------------------------------------------------------- mutation campaigns


def test_find_walk_is_a_valid_cr2_walk():
    """The campaign's cycle finder returns walks the oracle's CR2 rule accepts."""
    from lab.fuzz_signrank import find_walk

    sets = [so.forced_sets(a, b, TOKENS5, 3) for a, b in THEORY_PAIRS]
    for c in range(32):
        walk = find_walk(sets, c)
        assert walk is not None and so.walk_valid({"steps": walk}, c, sets, 5)


def test_small_campaigns_have_no_false_accept():
    from lab import fuzz_signrank

    for stats in (fuzz_signrank.single_field(80), fuzz_signrank.coordinated(40)):
        assert "false accepts" not in stats
        assert all(row["exit4"] == 0 and row["not_judged"] == 0 for kind, row in stats.items() if kind in ("orthant", "crossing"))


@pytest.mark.slow
def test_large_campaigns_have_no_false_accept():
    from lab import fuzz_signrank

    single, coord = fuzz_signrank.single_field(6000, seed=1), fuzz_signrank.coordinated(2000, seed=1)
    for stats in (single, coord):
        assert "false accepts" not in stats
        assert all(row["not_judged"] == 0 for kind, row in stats.items() if kind in ("orthant", "crossing"))
    assert sum(row["accepted"] for kind, row in coord.items() if kind in ("orthant", "crossing")) > 0


def test_a_listed_family_other_than_the_rule():
    """L7 needs no disjoint pairs: queries 11000, 00110 are shattered by two pairs;
    position-dependent at n = 4 each (query, pair) has 2 uniform inputs and 3 placements,
    all distinct: |W| = 2 * 2 * 5 = 20."""
    doc = {"format": "kernelbounds-certificate", "version": 2, "kind": "orthant", "m": 5, "n": 4, "variant": "position-dependent",
           "family": {"queries": ["11000", "00110"], "pairs": [{"a": "11001", "b": "00110", "pattern": "+-"}, {"a": "11110", "b": "00001", "pattern": "++"}]},
           "claims": {"bound": 2, "witness_inputs": 20}}
    assert so.judge(doc) is True
    assert so.judge(mutate(doc, lambda d: d["family"]["pairs"][1].update(b="00011"))) is False  # q_1 at d = 1: not forced
