"""An oracle for the v2 kinds `orthant` and `crossing`, written from
docs/certificate-format-v2.md and THEORY §1, §3 L1, L5, L7 and §2 U6 alone.

It imports nothing from kernelbounds (neither the checker nor the generator) and never
read their code.  ``judge(doc)`` returns True when every field is well-formed and every
claim is true as the spec and THEORY define it, recomputed by the most literal route:
False when a claim or a premise is false, None when the instance is too large for these
literal routes (or the kind is not one of the two).

Independence from the checker's route:
- levels and forced signs are recomputed per (query, pair) from popcounts, with L1's
  factor rho = (n-2)(d-1) required >= 1 (THEORY L1: D(lo) > rho D(hi) >= D(hi));
- the shattering premise of L7 is checked as coverage: the set of patterns and their
  negations is all of {+,-}^t (the spec's OR2 states it as pairwise-distinct classes);
- for `crossing`, every direction choice is judged by building the precedence graph of
  the strict inequalities theta_p < theta_q (THEORY U6) over all 2^m query tokens and
  finding a directed cycle by depth-first search; the listed walk is then checked too,
  because the format requires it (CR2), but the verdict on cyclicity does not rest on it;
- the witness family is built explicitly as a set of token tuples, per variant (L1's
  three inputs; L5's n-1 placements; q last for causal).
"""

from __future__ import annotations

from itertools import product

from lab.spec_oracle import Bad, is_int, keys, ok  # the v1 oracle's helpers (it imports nothing from kernelbounds)

MAX_T = 14  # orthant: 2^(t-1) pairs x t queries literally
MAX_M_CROSSING = 14  # crossing: the forced sets over all 2^m tokens
MAX_N = 64  # witness tuples are built literally
VARIANTS = ("position-independent", "position-dependent", "causal")


class TooLarge(Exception):
    """Beyond this oracle's literal routes."""


def token(x, m: int) -> str:
    """A token as the spec encodes it: m characters 0/1, character i = bit i."""
    ok(isinstance(x, str) and len(x) == m and set(x) <= {"0", "1"})
    return x


def level(q: str, z: str) -> int:
    """<q, z> = popcount(q & z) (THEORY §0)."""
    return sum(1 for a, b in zip(q, z, strict=True) if a == "1" and b == "1")


def judge(doc) -> bool | None:
    try:
        ok(isinstance(doc, dict))
        kind = doc.get("kind")
        if kind not in JUDGES:
            return None
        ok(doc.get("format") == "kernelbounds-certificate")
        ok(is_int(doc.get("version")) and doc["version"] == 2)  # both kinds are v2 only
        return JUDGES[kind](doc)
    except TooLarge:
        return None
    except Bad:
        return False
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return False


# ----------------------------------------------------------------- common


def header(doc) -> tuple[int, int, str]:
    m, n, variant = doc["m"], doc["n"], doc["variant"]
    ok(is_int(m, 1) and is_int(n, 3) and variant in VARIANTS)
    if n > MAX_N:
        raise TooLarge
    return m, n, variant


def forced(q: str, a: str, b: str, n: int) -> str | None:
    """THEORY L1 on the pair (a, b) at query q: '+' when K(q,b) > K(q,a) is forced
    (<q,a> - <q,b> >= 2), '-' when K(q,a) > K(q,b) is forced, None when not forced."""
    la, lb = level(q, a), level(q, b)
    d = abs(la - lb)
    if d < 2:
        return None
    rho = (n - 2) * (d - 1)
    ok(rho >= 1)  # D(lo) > rho D(hi) >= D(hi) needs rho >= 1 and D(hi) > 0
    return "+" if la > lb else "-"


def family_inputs(q: str, a: str, b: str, n: int, variant: str) -> set[tuple[str, ...]]:
    """The witness inputs of one (query, pair) incidence (OR4 / CR4): the two uniform
    inputs and the mixed input(s) with the lower-level key once (L1; L5 placements)."""
    lo, hi = (a, b) if level(q, a) < level(q, b) else (b, a)
    if variant == "causal":
        return {(a,) * (n - 1) + (q,), (b,) * (n - 1) + (q,), (lo,) + (hi,) * (n - 2) + (q,)}
    out = {(q,) + (a,) * (n - 1), (q,) + (b,) * (n - 1)}
    if variant == "position-dependent":
        for j in range(n - 1):  # lo at key position j + 2, hi at the others
            out.add((q,) + tuple(lo if i == j else hi for i in range(n - 1)))
    else:
        out.add((q, lo) + (hi,) * (n - 2))
    return out


# ----------------------------------------------------------------- orthant


def disjoint_pairs(m: int) -> tuple[list[str], list[dict]]:
    """The rule `disjoint-pairs` built literally from its definition."""
    t = m // 2
    ok(t >= 1)
    if t > MAX_T:
        raise TooLarge

    def union(sets) -> str:
        bits = {b for i in sets for b in (2 * i, 2 * i + 1)}
        return "".join("1" if j in bits else "0" for j in range(m))

    queries = [union([i]) for i in range(t)]
    pairs = []
    for c in range(2 ** (t - 1)):
        in_a = [0] + [i for i in range(1, t) if (c >> (i - 1)) & 1]
        rest = [i for i in range(t) if i not in in_a]
        pattern = "".join("+" if i in in_a else "-" for i in range(t))
        pairs.append({"a": union(in_a), "b": union(rest), "pattern": pattern})
    return queries, pairs


def listed_family(fam, m: int) -> tuple[list[str], list[dict]]:
    keys(fam, {"queries", "pairs"})
    queries, pairs = fam["queries"], fam["pairs"]
    ok(isinstance(queries, list) and isinstance(pairs, list))
    ok(1 <= len(queries))
    if len(queries) > MAX_T:
        raise TooLarge
    queries = [token(q, m) for q in queries]
    ok(len(set(queries)) == len(queries))
    out = []
    for p in pairs:
        keys(p, {"a", "b", "pattern"})
        out.append({"a": token(p["a"], m), "b": token(p["b"], m), "pattern": p["pattern"]})
    return queries, out


def negate(pattern: str) -> str:
    return pattern.translate(str.maketrans("+-", "-+"))


def orthant(doc) -> bool:
    keys(doc, {"format", "version", "kind", "m", "n", "variant", "family", "claims"})
    m, n, variant = header(doc)
    fam = doc["family"]
    ok(isinstance(fam, dict))
    if "rule" in fam:
        keys(fam, {"rule"})
        ok(fam["rule"] == "disjoint-pairs")
        queries, pairs = disjoint_pairs(m)
    else:
        queries, pairs = listed_family(fam, m)
    t = len(queries)
    ok(len(pairs) == 2 ** (t - 1))  # OR0
    witness: set[tuple[str, ...]] = set()
    seen: set[str] = set()
    for p in pairs:
        a, b, pattern = p["a"], p["b"], p["pattern"]
        ok(a != b)
        ok(isinstance(pattern, str) and len(pattern) == t and set(pattern) <= {"+", "-"})
        signs = [forced(q, a, b, n) for q in queries]
        ok(all(s is not None for s in signs))  # OR1: every query forced
        ok("".join(signs) == pattern)  # OR1: the pattern is the forced signs
        seen.update((pattern, negate(pattern)))
        for q in queries:
            witness |= family_inputs(q, a, b, n, variant)
    ok(seen == {"".join(s) for s in product("+-", repeat=t)})  # L7: every sign vector realised
    claims = keys(doc["claims"], {"bound", "witness_inputs"})
    ok(is_int(claims["bound"]) and claims["bound"] == t)  # OR3
    ok(is_int(claims["witness_inputs"]) and claims["witness_inputs"] == len(witness))  # OR4
    return True


# ----------------------------------------------------------------- crossing


def forced_sets(a: str, b: str, tokens: list[str], n: int) -> tuple[set[str], set[str]]:
    """P(a,b): queries where K(q,a) > K(q,b) is forced (<q,b> - <q,a> >= 2);
    N(a,b): queries where K(q,b) > K(q,a) is forced (THEORY U6, L1)."""
    pos, neg = set(), set()
    for q in tokens:
        s = forced(q, a, b, n)
        if s == "-":
            pos.add(q)
        elif s == "+":
            neg.add(q)
    return pos, neg


def find_cycle(edges: dict[object, list[object]]) -> list[object] | None:
    """A directed cycle of a finite graph as its list of nodes (iterative three-colour
    depth-first search: an edge to a node still on the stack closes a cycle), or None."""
    colour: dict[object, int] = {}
    parent: dict[object, object] = {}
    for root in edges:
        if colour.get(root):
            continue
        colour[root] = 1
        stack = [(root, iter(edges[root]))]
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
            elif colour.get(nxt, 0) == 0:
                colour[nxt], parent[nxt] = 1, node
                stack.append((nxt, iter(edges.get(nxt, ()))))
            elif colour[nxt] == 1:
                path = [node]
                while path[-1] != nxt:
                    path.append(parent[path[-1]])
                return path[::-1]  # nxt -> ... -> node -> nxt
    return None


def has_cycle(edges: dict[object, list[object]]) -> bool:
    return find_cycle(edges) is not None


def precedence_graph(sets: list[tuple[set[str], set[str]]], choice: int) -> dict[object, list[object]]:
    """theta_x < theta_y for every strict precedence of the choice: direction 0 of pair e
    puts all of P(e) before all of N(e), direction 1 the reverse.  The complete bipartite
    precedences go through one hub node per pair (x -> hub -> y), which keeps the graph
    linear in size and has a cycle iff the direct graph has one (hubs have no edge
    between them)."""
    edges: dict[object, list[object]] = {}
    for e, (pos, neg) in enumerate(sets):
        before, after = (pos, neg) if not (choice >> e) & 1 else (neg, pos)
        hub = ("hub", e)
        for x in before:
            edges.setdefault(x, []).append(hub)
        edges[hub] = sorted(after)
    return edges


def walk_valid(cycle, choice: int, sets, m: int) -> bool:
    """The listed closed walk (CR2): each step x_j -> x_(j+1) is a strict precedence of
    its pair in the chosen direction."""
    keys(cycle, {"steps"})
    steps = cycle["steps"]
    ok(isinstance(steps, list))
    parsed = []
    for s in steps:
        keys(s, {"query", "pair"})
        ok(is_int(s["pair"], 0, len(sets) - 1))
        parsed.append((token(s["query"], m), s["pair"]))
    if len(parsed) < 2:
        return False
    for j, (x, e) in enumerate(parsed):
        y = parsed[(j + 1) % len(parsed)][0]
        pos, neg = sets[e]
        before, after = (pos, neg) if not (choice >> e) & 1 else (neg, pos)
        if not (x in before and y in after):
            return False
    return True


def crossing(doc) -> bool:
    keys(doc, {"format", "version", "kind", "m", "n", "variant", "pairs", "cycles", "claims"})
    m, n, variant = header(doc)
    ok(m <= 20)
    if m > MAX_M_CROSSING:
        raise TooLarge
    pairs = doc["pairs"]
    ok(isinstance(pairs, list) and 1 <= len(pairs) <= 20)
    k = len(pairs)
    if k > 12:
        raise TooLarge
    listed = []
    for p in pairs:
        keys(p, {"a", "b"})
        a, b = token(p["a"], m), token(p["b"], m)
        ok(a != b)
        listed.append(frozenset((a, b)))
    ok(len(set(listed)) == k)  # no unordered pair twice
    tokens = ["".join(bits) for bits in product("01", repeat=m)]
    sets = [forced_sets(p["a"], p["b"], tokens, n) for p in pairs]
    claims = keys(doc["claims"], {"bound", "forced", "witness_inputs"})
    ok(is_int(claims["bound"]) and claims["bound"] == 3)  # CR3
    ok(isinstance(claims["forced"], list) and len(claims["forced"]) == k)
    for entry, (pos, neg) in zip(claims["forced"], sets, strict=True):  # CR1
        keys(entry, {"positive", "negative"})
        ok(is_int(entry["positive"]) and entry["positive"] == len(pos))
        ok(is_int(entry["negative"]) and entry["negative"] == len(neg))
    cycles = doc["cycles"]
    ok(isinstance(cycles, list) and len(cycles) == 2**k)
    for choice in range(2**k):
        ok(has_cycle(precedence_graph(sets, choice)))  # U6: this choice is contradictory
        ok(walk_valid(cycles[choice], choice, sets, m))  # CR2: and the listed walk shows it
    witness: set[tuple[str, ...]] = set()
    for p, (pos, neg) in zip(pairs, sets, strict=True):
        for q in pos | neg:
            witness |= family_inputs(q, p["a"], p["b"], n, variant)
    ok(is_int(claims["witness_inputs"]) and claims["witness_inputs"] == len(witness))  # CR4
    return True


JUDGES = {"orthant": orthant, "crossing": crossing}
