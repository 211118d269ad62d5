"""The checker's orbit closure (rules/orbits.py: the permutations' action on word indices,
then a breadth-first search over indices) against the closure it replaced (kept as the
oracle lab/orbit_closure_v1.py: a search over the words themselves): the same orbit
sizes, the same earlier orbit for a representative inside one, the same words left over,
on every code of the committed certificates and on random permutation groups."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from kernelbounds.bits import to_str
from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.limits import Limits
from kernelbounds.checker.rules import orbits, orbits_work
from lab import orbit_closure_v1 as oracle

ROOT = Path(__file__).resolve().parents[2]


def new_orbits(node: Node, words: list[int], code, images: list[list[int]], reps: list[int]):
    """What the checker derives, in the oracle's terms (check_orbit_claims' loop without
    its claims: per representative its orbit's size or the earlier orbit it lies in)."""
    action = orbits.check_automorphisms(node, images, words, code)
    owner = [-1] * action.space
    out: list = []
    for t, rep in enumerate(reps):
        x = action.index_of(rep)
        assert x is not None  # every representative drawn here is a code word
        out.append(("inside", owner[x]) if owner[x] >= 0 else orbits.closure(x, action.maps, owner, t))
    return out, [j for j, x in enumerate(action.order) if owner[x] < 0]


def committed_codes():
    """Each distinct (m, code, symmetry) of the committed orbit-form and direct-sum files,
    once, as the node that carries it (a lower-bound file or a direct sum's component)."""
    found: dict[str, tuple[str, dict]] = {}
    for path in sorted((ROOT / "certificates").glob("*.json")):
        text = path.read_text()
        if '"symmetry"' not in text:
            continue
        doc = json.loads(text)
        for part in doc["components"] if doc.get("kind") == "direct-sum" else [doc]:
            key = json.dumps([part["m"], part["code"], part["symmetry"]], sort_keys=True)
            found.setdefault(key, (f"{part['code'].get('name', 'code')}-m{part['m']}-{path.stem}", part))
    params = []
    for name, part in found.values():
        big = part["claims"]["code_size"] > 200_000  # RM(2,6): the old closure alone takes some 6 s
        params.append(pytest.param(part, id=name, marks=[pytest.mark.slow] if big else []))
    return params


def listed_versions():
    """The committed codes of at most 3000 words with their words listed (the listed orbit form)."""
    out = []
    for param in committed_codes():
        part = param.values[0]
        if part["claims"]["code_size"] <= 3000:
            node, m = Node(part), part["m"]
            words = orbits.linear_words(node, m, Limits())[1]
            listed = {**part, "code": {"words": [to_str(w, m) for w in words]}}
            out.append(pytest.param(listed, id=f"listed-{param.id}"))
    return out


def read_code(part: dict):
    """(node, m, the code's words, the code as check_automorphisms takes it)."""
    node, m = Node(part), part["m"]
    if "linear" in part["code"]:
        rows, words, messages, _ = orbits.linear_words(node, m, Limits())
        return node, m, words, (rows, messages)
    words = orbits.listed_words(node, m, Limits())
    return node, m, words, words


def test_the_committed_certificates_use_several_codes():
    assert len(committed_codes()) >= 6


@pytest.mark.parametrize("part", committed_codes() + listed_versions())
def test_committed_code_orbits_equal_the_old_closure(part):
    node, m, words, code = read_code(part)
    images = part["symmetry"]["permutations"]
    claimed = [node["claims"]["orbits"][t]["representative"].token(m) for t in range(len(part["claims"]["orbits"]))]
    # the claimed representatives (the whole code), then words of earlier orbits and a partial cover
    for reps in (claimed, claimed + [words[0], words[-1], words[len(words) // 2]], claimed[:1]):
        expected = oracle.orbits(words, images, m, reps)
        assert new_orbits(node, words, code, images, reps) == expected
    assert [s for s, _ in orbits.check_orbit_claims(node["claims"], words, orbits.check_automorphisms(node, images, words, code), m)] == [
        o["size"] for o in part["claims"]["orbits"]]


def permute(word: int, images: list[int]) -> int:
    return sum(1 << images[i] for i in range(len(images)) if word >> i & 1)


def invariant_closure(seeds: list[int], gens: list[list[int]]) -> set[int]:
    """The union of the seeds' orbits: add every generator's images until nothing is new."""
    words: set[int] = set(seeds)
    while True:
        grown = words | {permute(w, g) for w in words for g in gens}
        if grown == words:
            return words
        words = grown


def span_basis(vectors: set[int]) -> list[int]:
    basis: dict[int, int] = {}
    for v in vectors:
        while v and v.bit_length() in basis:
            v ^= basis[v.bit_length()]
        if v:
            basis[v.bit_length()] = v
    return list(basis.values())


@st.composite
def permutation_groups(draw):
    """(m, generators, weight w, seed words of weight w): two seeds differ by a
    transposition, so the code they generate has at least two words of weight w."""
    m = draw(st.integers(2, 10))
    gens = [list(g) for g in draw(st.lists(st.permutations(range(m)), min_size=1, max_size=4))]
    w = draw(st.integers(1, m - 1))
    order = draw(st.permutations(range(m)))
    s1 = sum(1 << i for i in order[:w])
    s2 = s1 ^ (1 << order[0]) ^ (1 << order[w])
    more = [permute(s1, list(p)) for p in draw(st.lists(st.permutations(range(m)), max_size=3))]
    return m, gens, w, [s1, s2, *more]


@settings(max_examples=80, deadline=None)
@given(permutation_groups(), st.booleans(), st.integers(0, 2**32), st.lists(st.integers(0, 2**20), min_size=1, max_size=6))
def test_random_groups_orbits_equal_the_old_closure(group, linear, seed, picks):
    m, gens, w, seeds = group
    if linear:  # the weight-w words of the span of the seeds' orbits (an invariant linear code)
        rows = span_basis(invariant_closure(seeds, gens))
        size = sum(1 for x in range(1, 2 ** len(rows)) if sum_rows(rows, x).bit_count() == w)
        part = {"m": m, "code": {"linear": {"generator": [to_str(r, m) for r in rows], "weight": w}}, "claims": {"code_size": size}, "symmetry": {"permutations": gens}}
        node, _, words, code = read_code(part)
    else:  # the seeds' orbits, listed in a shuffled order
        words = sorted(invariant_closure(seeds, gens))
        random.Random(seed).shuffle(words)
        node, code = Node({"symmetry": {"permutations": gens}}), words
    reps = [words[j % len(words)] for j in picks]
    assert new_orbits(node, words, code, gens, reps) == oracle.orbits(words, gens, m, reps)


def sum_rows(rows: list[int], x: int) -> int:
    out = 0
    for t, r in enumerate(rows):
        if x >> t & 1:
            out ^= r
    return out


@pytest.mark.parametrize("part", committed_codes() + listed_versions())
def test_the_work_estimate_counts_what_the_route_does(part, monkeypatch):
    """orbit_counts (rules/orbits_work.py: the work estimate's items, from the sizes alone) equals a count taken
    by instrumenting the route's maps and rows on the committed code (the linear
    enumeration's 2^k - 1 Gray steps are its loop's range)."""
    counted: dict[str, int] = dict.fromkeys(("table_entries", "lookups", "images", "popcounts"), 0)

    class CountedMap(orbits.LinearMap):
        def __init__(self, columns):
            super().__init__(columns)
            counted["table_entries"] += sum(map(len, self.tables))

        def apply_all(self, words):
            counted["lookups"] += len(words) * len(self.tables)
            counted["images"] += len(words)
            return super().apply_all(words)

    real_positions, real_histogram = orbits.positions, orbits.row_histogram

    def positions(found):
        step = real_positions(found)

        def counted_step(batch):
            counted["images"] += len(batch)
            return step(batch)

        return counted_step

    def row_histogram(rep, words, m):
        counted["popcounts"] += len(words)
        return real_histogram(rep, words, m)

    monkeypatch.setattr(orbits, "LinearMap", CountedMap)
    monkeypatch.setattr(orbits, "positions", positions)
    monkeypatch.setattr(orbits, "row_histogram", row_histogram)
    node, m, words, code = read_code(part)
    action = orbits.check_automorphisms(node, orbits.read_permutations(node["symmetry"]["permutations"], m), words, code)
    orbits.check_orbit_claims(node["claims"], words, action, m)
    estimate = orbits_work.orbit_counts(node, Limits())
    assert {item: estimate[item] for item in counted} == counted
    assert estimate["words"] == len(words)
    if "linear" in part["code"]:
        assert estimate["gray_steps"] == 2 ** len(code[0]) - 1
