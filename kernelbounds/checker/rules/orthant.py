"""Rule `orthant` (format v2): the orthant family of THEORY §3 L7 shatters t queries, so
every head that solves its witness family has kernel rank >= t (sign rank >= VC dimension).

Checked facts (docs/certificate-format-v2.md, kind `orthant`):
  OR0  sizes: 1 <= t <= 20 distinct queries, exactly 2^(t-1) pairs, a != b in each;
  OR1  every sign forced: for every pair (a, b) and query q the levels <q,a>, <q,b> are
       recomputed, the gap d >= 2 and L1's factor (n-2)(d-1) >= 1; the claimed pattern
       equals the forced signs (`+` when <q,a> - <q,b> >= 2, i.e. K(q,b) > K(q,a));
  OR2  shattering: the classes {p, -p} of the patterns are pairwise distinct, so every
       sign vector in {+,-}^t is some pattern up to the pair's orientation;
  OR3  bound = t;
  OR4  the witness family's size (uniform inputs of both keys, mixed inputs with the lower
       key once: every placement for position-dependent heads).
Why OR1-OR2 prove the bound (THEORY L7): a dependency sum_i mu_i K(q_i, .) = 0 with mu != 0
meets the pair whose pattern is sign(mu), where sum_i mu_i (K(q_i, b) - K(q_i, a)) > 0.
Nonnegativity is not used: the claim is for kernels of any sign.  Rule `disjoint-pairs`
builds the family q_i = {2i, 2i+1}, t = floor(m/2), and is checked by the same rules.
"""

from __future__ import annotations

from ..common import Outcome, expect_equal, require_version
from ..sizes import sized
from .. import claims as claim_of
from ..errors import Invalid, LimitExceeded
from ..jsonread import Node
from ..limits import Limits
from . import kernels
from .forced import MAX_SIGNS, SCOPE, VARIANTS, family_size, forced, read_pair

FIELDS = {"format", "version", "kind", "m", "n", "variant", "family", "claims"}
OPTIONAL = {"kernel"}  # "nonnegative" (default) or "signed"; THEORY L7, L8 (a)


def disjoint_pairs(m: int) -> tuple[list[int], list[tuple[int, int, str]]]:
    """The rule's queries q_i = {2i, 2i+1} and pairs (a_c, b_c, pattern_c), c = 0..2^(t-1)-1."""
    t = m // 2
    queries = [3 << (2 * i) for i in range(t)]
    pairs = []
    for c in range(2 ** (t - 1)):
        plus = [0] + [i for i in range(1, t) if c >> (i - 1) & 1]
        a = sum(queries[i] for i in plus)
        b = sum(queries) - a
        pairs.append((a, b, "".join("+" if i in plus else "-" for i in range(t))))
    return queries, pairs


def read_sizes(doc: Node, limits: Limits) -> tuple[int, int]:
    """(t, number of pairs) for the work estimate; over 20 queries is exit 3."""
    family = sized(doc, "family")
    if isinstance(family, dict) and "rule" in family:
        m = doc["m"].int(1, limit=limits.max_m)
        t = m // 2
        if t > MAX_SIGNS:
            raise LimitExceeded("/m", f"the rule disjoint-pairs at m = {m} has t = {t} queries, over the limit {MAX_SIGNS} (2^(t-1) pairs)")
        return t, 2 ** max(t - 1, 0)
    queries = family.get("queries") if isinstance(family, dict) else None
    pairs = family.get("pairs") if isinstance(family, dict) else None
    t = len(queries) if isinstance(queries, list) else 0
    if t > MAX_SIGNS:
        raise LimitExceeded("/family/queries", f"{t} queries, over the limit {MAX_SIGNS}")
    return t, len(pairs) if isinstance(pairs, list) else 0


def _read_family(doc: Node, m: int, limits: Limits) -> tuple[list[int], list[tuple[int, int, str]], list[str], str]:
    """(queries, pairs with claimed patterns, pointer of each pair, description)."""
    family = doc["family"]
    if family.has("rule"):
        family.obj({"rule"})
        family["rule"].str(("disjoint-pairs",))
        if m // 2 < 1:
            raise Invalid("/m", f"the rule disjoint-pairs needs m >= 2 (t = floor(m/2) = {m // 2})")
        queries, pairs = disjoint_pairs(m)
        return queries, pairs, ["/family"] * len(pairs), "rule disjoint-pairs"
    family.obj({"queries", "pairs"})
    qnodes = family["queries"].list(MAX_SIGNS)
    queries = [x.token(m) for x in qnodes]
    if not queries:
        raise Invalid(family["queries"].pointer, "the family needs t >= 1 queries")
    seen: dict[int, int] = {}
    for i, q in enumerate(queries):
        if q in seen:
            raise Invalid(qnodes[i].pointer, f"repeats query {seen[q]}")
        seen[q] = i
    pairs, pointers = [], []
    for node in family["pairs"].list(limits.max_list):
        a, b = read_pair(node, m, frozenset({"pattern"}))
        pattern = node["pattern"].str()
        if len(pattern) != len(queries) or pattern.strip("+-"):
            raise node["pattern"].fail(f"expected a string of {len(queries)} characters '+'/'-'")
        pairs.append((a, b, pattern))
        pointers.append(node.pointer)
    return queries, pairs, pointers, f"{len(queries)} listed queries"


def _forced_pattern(queries: list[int], a: int, b: int, n: int, e: int, pointer: str) -> str:
    """OR1: the forced signs of every query on (a, b); an unforced query is rejected."""
    out = []
    for i, q in enumerate(queries):
        s = forced(q, a, b, n)
        if s == 0:
            la, lb = (q & a).bit_count(), (q & b).bit_count()
            raise Invalid(pointer, f"pair {e}: query {i} is not forced: levels <q,a> = {la}, <q,b> = {lb} (gap {abs(la - lb)} < 2)")
        out.append("+" if s > 0 else "-")
    return "".join(out)


def _flip(pattern: str) -> str:
    return pattern.translate(str.maketrans("+-", "-+"))


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj(FIELDS, OPTIONAL)
    require_version(doc, doc["kind"], 2, "the kind orthant")
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(3, limit=limits.max_n)
    variant = doc["variant"].str(VARIANTS)
    kernels.read_kernel(doc, variant, ("nonnegative", "signed"), "orthant")
    claims = doc["claims"].obj({"bound", "witness_inputs"})
    queries, pairs, pointers, described = _read_family(doc, m, limits)
    t = len(queries)
    if len(pairs) != 2 ** (t - 1):
        raise Invalid("/family/pairs", f"{len(pairs)} pairs listed; shattering {t} queries takes exactly 2^(t-1) = {2 ** (t - 1)} (one per class {{s, -s}})")
    classes: dict[str, int] = {}
    uniform: set[tuple[int, int]] = set()
    for e, (a, b, claimed) in enumerate(pairs):
        if a == b:
            raise Invalid(pointers[e], "a = b: a pair needs two different keys")
        derived = _forced_pattern(queries, a, b, n, e, pointers[e])
        if claimed != derived:
            raise Invalid(pointers[e] + "/pattern", f"claims the pattern {claimed!r}, but the forced signs are {derived!r}", derived=derived)
        key = min(derived, _flip(derived))
        if key in classes:
            raise Invalid(pointers[e], f"its class {{{derived}, {_flip(derived)}}} repeats pair {classes[key]}'s")
        classes[key] = e
        uniform.update((q, z) for q in queries for z in (a, b))
    expect_equal(claims["bound"], claims["bound"].int(0), t, "the bound (the number of shattered queries t)")
    count = family_size(uniform, t * len(pairs), n, variant)
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs")
    routes = [
        f"L1 at every (query, pair): {t * len(pairs)} forced signs, every gap >= 2 and factor (n-2)(d-1) >= 1 at n = {n}",
        f"shattering: {len(pairs)} pairs in pairwise distinct classes {{s, -s}} cover all {2 ** t} sign vectors of the {t} queries ({described})",
        f"witness family: {count} inputs ({len(uniform)} uniform, {count - len(uniform)} mixed)",
    ]
    summary = (
        f"orthant lower bound (m={m}, n={n}, {variant}): every normalized head (kernel of any sign) {SCOPE[variant]} "
        f"and whose denominators are > 0 on the {count}-input witness family has kernel rank >= {t}, hence feature rank >= {t}"
        + (" (the rank of Kbar = sum_j K_j)" if variant == "position-dependent" else "")
    )
    # L7 uses only signs forced from positive denominators (THEORY L8 (a)): whatever the file's
    # kernel field states, the bound holds for nonnegative and signed kernels alike.
    return Outcome(summary, routes, version=2, claim=claim_of.lower(t, m, n, variant, kernels.COVERED["signed"]))
