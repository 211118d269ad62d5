"""Single crossing (THEORY §2 U6) and the certificate kind `crossing`: THEORY's core at
m = 5, the CP-SAT search, the exact cycle search, the checker's rules and rejections, and
the separation property on the committed rank-2 head at m = 4."""

from __future__ import annotations

import json
from collections import deque
from fractions import Fraction
from functools import cmp_to_key
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import verdict
from kernelbounds.bits import inner
from kernelbounds.lowerbounds import crossing
from kernelbounds.lowerbounds.assemble import VARIANTS

ROOT = Path(__file__).resolve().parents[2]


def acyclic(sets, choice) -> bool:
    """Kahn's algorithm on the precedence graph (queries, and one node per pair between
    its before-set and after-set): an independent test of `crossing.cycle`."""
    order = crossing.precedences(sets, choice)
    succ: dict[object, set] = {}
    for e, (before, after) in enumerate(order):
        for x in before:
            succ.setdefault(("q", x), set()).add(("e", e))
        succ.setdefault(("e", e), set()).update(("q", y) for y in after)
    indeg: dict[object, int] = {v: 0 for v in succ}
    for vs in succ.values():
        for v in vs:
            indeg[v] = indeg.get(v, 0) + 1
    queue = deque(v for v, d in indeg.items() if d == 0)
    done = 0
    while queue:
        v = queue.popleft()
        done += 1
        for w in succ.get(v, ()):
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    return done == len(indeg)


def test_theorys_five_pairs_are_a_core_and_no_four_of_them_are():
    core = crossing.refute(5, 3, pairs=crossing.THEORY_M5)
    assert core.is_core and core.witness_count == 105
    assert sum(len(p) + len(q) for p, q in core.sets) == 35
    assert len({q for p, n in core.sets for q in p + n}) == 20
    for sub in combinations(core.pairs, 4):
        assert not crossing.Crossing(5, 3, "position-independent", sub).is_core


def test_the_committed_core_at_m5_is_the_searchs_and_smaller():
    found = crossing.search(5, complementary=False)
    assert found.pairs == crossing.refute(5).pairs and len(found.pairs) == 5
    assert crossing.refute(5).witness_count == 50
    assert crossing.search(5).pairs is not None  # complementary pairs suffice too


def test_no_core_at_m4_matches_the_rank_2_head():
    """r*(4, 3) = 2: a rank-2 head exists, so no set of pairs can be a core at m = 4; CP-SAT
    finds an acyclic choice for all pairs, and the exact search agrees."""
    cands = crossing.candidate_pairs(4, complementary=False)
    sets = [crossing.forced_sets(a, b, 4) for a, b in cands]
    found = crossing.acyclic_choice(sets)
    assert isinstance(found, tuple)
    choice, position = found
    assert crossing.cycle(sets, choice) is None and acyclic(sets, choice)
    for before, after in crossing.precedences(sets, choice):
        assert all(position[p] < position[q] for p in before for q in after)


CANDIDATES_M5 = crossing.candidate_pairs(5, complementary=False)


@given(st.permutations(range(len(CANDIDATES_M5))), st.integers(1, 6), st.data())
def test_cycle_finds_a_closed_walk_exactly_when_the_choice_is_cyclic(order, k, data):
    pairs = [CANDIDATES_M5[i] for i in order[:k]]
    sets = [crossing.forced_sets(a, b, 5) for a, b in pairs]
    choice = data.draw(st.integers(0, 2 ** len(pairs) - 1))
    walk = crossing.cycle(sets, choice)
    assert (walk is None) == acyclic(sets, choice)
    order = crossing.precedences(sets, choice)
    for j, (x, e) in enumerate(walk or []):
        assert x in order[e][0] and walk[(j + 1) % len(walk)][0] in order[e][1]


def test_forced_sets_follow_l1():
    for a, b in crossing.candidate_pairs(5)[:4]:
        pos, neg = crossing.forced_sets(a, b, 5)
        assert all(inner(q, b) - inner(q, a) >= 2 for q in pos) and all(inner(q, a) - inner(q, b) >= 2 for q in neg)
        assert len(pos) + len(neg) == sum(abs(inner(q, a) - inner(q, b)) >= 2 for q in range(32))


def test_the_rank_2_head_at_m4_separates_every_pair_along_its_angles():
    """U6's lemma on a real head: with phi, psi the committed rank-2 head (psi > 0, so every
    phi_Q(q) lies in an open half-plane), the forced positive and negative queries of
    every key pair are separated in the angular order of phi_Q(q)."""
    doc = json.loads((ROOT / "certificates" / "explicit-head-m04-n3-r2.json").read_text())
    phi = [[Fraction(x) for x in row] for row in doc["head"]["phi"]]
    assert all(Fraction(x) > 0 for row in doc["head"]["psi"] for x in row)

    def cross(p, q):
        return phi[p][0] * phi[q][1] - phi[p][1] * phi[q][0]

    order = sorted(range(16), key=cmp_to_key(lambda p, q: -1 if cross(p, q) > 0 else 1 if cross(p, q) < 0 else 0))
    assert all(cross(order[i], order[j]) >= 0 for i in range(16) for j in range(i + 1, 16))  # a consistent order
    rank = {}
    for q in order:
        prev = next((r for r in rank if cross(r, q) == 0), None)
        rank[q] = rank[prev] if prev is not None else len(set(rank.values()))
    for a, b in combinations(range(16), 2):
        pos, neg = crossing.forced_sets(a, b, 4)
        if pos and neg:
            lo_p, hi_p = min(rank[q] for q in pos), max(rank[q] for q in pos)
            lo_n, hi_n = min(rank[q] for q in neg), max(rank[q] for q in neg)
            assert hi_p < lo_n or hi_n < lo_p, (a, b)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n", [3, 4, 6])
def test_crossing_certificates_check(variant, n):
    c = crossing.refute(5, n, variant)
    v = verdict(c.certificate())
    assert v.code == 0 and "kernel rank >= 3" in v.summary and f"{c.witness_count}-input" in v.summary, v.render()
    assert c.witness_count == len(set(c.witness_inputs))
    per = n + 1 if variant == "position-dependent" else 3
    theory = crossing.refute(5, n, variant, crossing.THEORY_M5)
    assert theory.witness_count == 35 * per  # THEORY U6: 3 |P u N| per pair ((n+1) position-dependent)


@given(st.permutations(range(5)), st.sampled_from(VARIANTS), st.integers(3, 5))
def test_a_core_moved_by_a_coordinate_permutation_is_a_core_and_checks(perm, variant, n):
    def move(x):
        return sum(1 << perm[i] for i in range(5) if x >> i & 1)

    pairs = tuple((move(a), move(b)) for a, b in crossing.refute(5).pairs)
    c = crossing.Crossing(5, n, variant, pairs)
    assert c.is_core
    assert verdict(c.certificate()).code == 0


def tampered(edit) -> tuple[int, str]:
    doc = crossing.refute(5, 3).certificate()
    edit(doc)
    v = verdict(doc)
    return v.code, v.pointer


def test_tampered_crossing_certificates_are_rejected_at_the_field():
    def drop_cycle(d):
        d["cycles"].pop()

    def wrong_step(d):
        d["cycles"][5]["steps"][0]["query"] = "11111"

    def wrong_pair(d):
        steps = d["cycles"][5]["steps"]
        steps[0]["pair"] = (steps[0]["pair"] + 1) % 5

    def short_walk(d):
        d["cycles"][3]["steps"] = d["cycles"][3]["steps"][:1]

    def forced(d):
        d["claims"]["forced"][2]["negative"] += 1

    def bound(d):
        d["claims"]["bound"] = 4

    def count(d):
        d["claims"]["witness_inputs"] -= 1

    def repeated(d):
        d["pairs"][1] = {"a": d["pairs"][0]["b"], "b": d["pairs"][0]["a"]}

    def index(d):
        d["cycles"][0]["steps"][0]["pair"] = 5

    def version(d):
        d["version"] = 1

    assert tampered(drop_cycle) == (1, "/cycles")
    assert tampered(wrong_step) == (1, "/cycles/5/steps/0")
    assert tampered(wrong_pair)[0] == 1 and tampered(wrong_pair)[1].startswith("/cycles/5/steps/")
    assert tampered(short_walk) == (1, "/cycles/3/steps")
    assert tampered(forced) == (1, "/claims/forced/2/negative")
    assert tampered(bound) == (1, "/claims/bound")
    assert tampered(count) == (1, "/claims/witness_inputs")
    assert tampered(repeated) == (1, "/pairs/1")
    assert tampered(index) == (2, "/cycles/0/steps/0/pair")
    assert tampered(version) == (2, "/kind")


def test_four_pairs_cannot_be_certified():
    """Drop one pair of the core: some direction choice is acyclic, so no listed walk for it
    can pass (the checker rejects whatever walk is given)."""
    c = crossing.Crossing(5, 3, "position-independent", crossing.refute(5).pairs[:4])
    assert not c.is_core
    bad = next(i for i, w in enumerate(c.cycles) if w is None)
    doc = crossing.refute(5, 3).certificate()
    doc["pairs"] = doc["pairs"][:4]
    doc["claims"]["forced"] = doc["claims"]["forced"][:4]
    doc["cycles"] = [{"steps": [{"query": s["query"], "pair": s["pair"] % 4} for s in cyc["steps"]]} for cyc in doc["cycles"][:16]]
    v = verdict(doc)
    assert v.code == 1 and v.pointer.startswith("/cycles/") and int(v.pointer.split("/")[2]) <= bad


def test_the_crossing_rule_is_limited_before_any_work():
    doc = crossing.refute(5, 3).certificate()
    doc["m"] = 21
    assert verdict(doc).code == 3 and verdict(doc).pointer == "/m"
    assert verdict(crossing.refute(5, 3).certificate(), work_budget=100).code == 3
