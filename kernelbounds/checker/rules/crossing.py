"""Rule `crossing` (format v2): no head of kernel rank <= 2 with a nonnegative kernel solves
the witness family, by single crossing (THEORY §2 U6), so kernel rank >= 3.

Checked facts (docs/certificate-format-v2.md, kind `crossing`):
  CR0  sizes: m <= 20, 1 <= k <= 20 distinct unordered pairs with a != b, 2^k cycles;
  CR1  the forced sets over all 2^m queries, re-derived from the levels (L1, gap >= 2,
       factor (n-2)(d-1) >= 1): P(a,b) = {q : <q,b> - <q,a> >= 2} (K(q,a) > K(q,b)) and
       N(a,b) = {q : <q,a> - <q,b> >= 2}; their sizes as claimed;
  CR2  for every direction choice c (bit e = direction of pair e: 0 "P before N",
       1 "N before P") the listed closed walk has every step theta(x_j) < theta(x_(j+1))
       justified by its pair under that direction;
  CR3  bound = 3;
  CR4  the witness family's size (every pair, every q in P u N: both uniform inputs and
       the mixed input, every placement of the lower key for position-dependent heads).
Why: a nonnegative rank-2 kernel factors through R^2_{>=0} (Cohen-Rothblum); each key
pair's forced positive and negative queries are separated along the angle of the query
vector, so every choice of separations is a set of strict precedences, and a closed walk
in it is a contradiction.
"""

from __future__ import annotations

from ..common import Outcome, expect_equal, require_version
from ..sizes import length, sized
from .. import claims as claim_of
from ..errors import Invalid, LimitExceeded
from ..jsonread import Node
from ..limits import Limits
from . import kernels
from .forced import MAX_SIGNS, SCOPE, VARIANTS, family_size, forced, read_pair

FIELDS = {"format", "version", "kind", "m", "n", "variant", "pairs", "cycles", "claims"}
OPTIONAL = {"kernel"}  # "nonnegative" only (Cohen-Rothblum needs K >= 0; THEORY U6, L8)
MAX_M = 20
BOUND = 3


def read_sizes(doc: Node, limits: Limits) -> tuple[int, int]:
    m = doc["m"].int(1, limit=limits.max_m)
    if m > MAX_M:
        raise LimitExceeded("/m", f"m = {m}: the forced sets enumerate 2^m queries; the limit is m <= {MAX_M}")
    k = length(sized(doc, "pairs"))
    if k > MAX_SIGNS:
        raise LimitExceeded("/pairs", f"{k} pairs: 2^k direction choices, over the limit k <= {MAX_SIGNS}")
    return m, k


def _read_pairs(doc: Node, m: int) -> list[tuple[int, int]]:
    nodes = doc["pairs"].list(MAX_SIGNS)
    if not nodes:
        raise Invalid(doc["pairs"].pointer, "a crossing certificate needs k >= 1 pairs")
    pairs: list[tuple[int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    for e, node in enumerate(nodes):
        a, b = read_pair(node, m)
        if a == b:
            raise Invalid(node.pointer, "a = b: a pair needs two different keys")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise Invalid(node.pointer, f"repeats pair {seen[key]}")
        seen[key] = e
        pairs.append((a, b))
    return pairs


def forced_sets(a: int, b: int, m: int, n: int) -> tuple[frozenset[int], frozenset[int]]:
    """CR1: (P, N) over all 2^m queries; P = {q : K(q,a) > K(q,b) forced}."""
    pos, neg = [], []
    for q in range(2**m):
        s = forced(q, a, b, n)
        if s < 0:
            pos.append(q)
        elif s > 0:
            neg.append(q)
    return frozenset(pos), frozenset(neg)


def _check_walk(node: Node, c: int, sets: list[tuple[frozenset[int], frozenset[int]]], m: int) -> int:
    """CR2 for choice c: every step of the closed walk is a precedence of its pair."""
    steps = node.obj({"steps"})["steps"].list(2**m * len(sets) + 1)
    if len(steps) < 2:
        raise Invalid(node["steps"].pointer, f"a closed walk needs at least 2 steps, got {len(steps)}")
    walk = []
    for step in steps:
        step.obj({"query", "pair"})
        walk.append((step["query"].token(m), step["pair"].int(0, len(sets) - 1)))
    for j, (x, e) in enumerate(walk):
        nxt = walk[(j + 1) % len(walk)][0]
        first, second = sets[e] if not c >> e & 1 else sets[e][::-1]
        if x not in first or nxt not in second:
            side = ("P", "N") if not c >> e & 1 else ("N", "P")
            why = f"query {j} is not in {side[0]}(pair {e})" if x not in first else f"the next query is not in {side[1]}(pair {e})"
            raise Invalid(steps[j].pointer, f"choice {c} directs pair {e} as '{side[0]} before {side[1]}', so this step needs x_j in {side[0]} and x_(j+1) in {side[1]}: {why}")
    return len(walk)


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj(FIELDS, OPTIONAL)
    require_version(doc, doc["kind"], 2, "the kind crossing")
    m, _ = read_sizes(doc, limits)
    n = doc["n"].int(3, limit=limits.max_n)
    variant = doc["variant"].str(VARIANTS)
    kernels.read_kernel(doc, variant, ("nonnegative",), "crossing")
    claims = doc["claims"].obj({"bound", "forced", "witness_inputs"})
    pairs = _read_pairs(doc, m)
    k = len(pairs)
    sets = [forced_sets(a, b, m, n) for a, b in pairs]
    forced_nodes = claims["forced"].list(MAX_SIGNS, length=k)
    for e, (pos, neg) in enumerate(sets):
        node = forced_nodes[e].obj({"positive", "negative"})
        expect_equal(node["positive"], node["positive"].int(0), len(pos), f"|P| of pair {e} (queries with <q,b> - <q,a> >= 2)")
        expect_equal(node["negative"], node["negative"].int(0), len(neg), f"|N| of pair {e} (queries with <q,a> - <q,b> >= 2)")
    cycles = doc["cycles"].list(2**MAX_SIGNS)
    if len(cycles) != 2**k:
        raise Invalid(doc["cycles"].pointer, f"{len(cycles)} cycles listed; {k} pairs have 2^{k} = {2**k} direction choices, each needs one")
    longest = max(_check_walk(node, c, sets, m) for c, node in enumerate(cycles))
    expect_equal(claims["bound"], claims["bound"].int(0), BOUND, "the bound (single crossing refutes kernel rank <= 2)")
    uniform = {(q, z) for (a, b), (pos, neg) in zip(pairs, sets, strict=True) for q in pos | neg for z in (a, b)}
    incidences = sum(len(pos) + len(neg) for pos, neg in sets)
    count = family_size(uniform, incidences, n, variant)
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs")
    queries = len(set().union(*(pos | neg for pos, neg in sets)))
    routes = [
        f"L1 forced sets of {k} pairs over all {2**m} queries (gap >= 2, factor (n-2)(d-1) >= 1 at n = {n}): {incidences} (pair, query) incidences, {queries} distinct queries",
        f"single crossing: all {2**k} direction choices have a closed walk of strict angle precedences (longest {longest} steps)",
        f"witness family: {count} inputs ({len(uniform)} uniform, {count - len(uniform)} mixed)",
    ]
    summary = (
        f"crossing lower bound (m={m}, n={n}, {variant}): every normalized head with a nonnegative kernel "
        f"{SCOPE[variant]} and whose denominators are > 0 on the {count}-input witness family has kernel rank >= 3, "
        f"hence feature rank >= 3" + (" (the rank of Kbar = sum_j K_j)" if variant == "position-dependent" else "")
    )
    return Outcome(summary, routes, version=2, claim=claim_of.lower(BOUND, m, n, variant))  # THEORY U6: K >= 0 only
