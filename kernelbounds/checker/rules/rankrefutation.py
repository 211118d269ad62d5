"""Rule `rank-refutation` (format v2): no head of kernel rank <= r with positive denominators
solves the witness family, by oriented matroids and a clausal proof (THEORY §2 U7), so
feature rank >= r + 1.

Checked facts (docs/certificate-format-v2.md, kind `rank-refutation`):
  RR0  sizes: 2 <= r <= k <= 24 queries, the CNF's size from (k, r, pairs) and the proof's
       size within the work budget (computed before anything else);
  RR1  the queries are distinct tokens listed in increasing order as integers (bit i =
       character i): ONE order serves the variables, the relations and the Cramer tuples;
  RR2  every pair has a != b, at least r + 1 forced queries (L1, gap >= 2), and a forced
       pattern whose class {s, -s} no earlier pair has;
  RR3  the checker builds the CNF itself (never reads clauses from the file): one variable
       per sorted r-subset, chi(first r) = +, the 3-term Grassmann-Pluecker relations and
       the Cramer clauses, in the canonical order of the spec; claims/variables and
       claims/clauses equal its counts;
  RR4  claims/bound = r + 1;
  RR5  the proof (LRAT with RUP hints, or DRAT restricted to RUP steps; checker/clausal.py)
       derives the empty clause;
  RR6  the witness family's size: per pair and forced query, both uniform inputs and the
       mixed input(s) with the lower-level key once (every placement for position-dependent
       heads; the query last for causal).
Why: a head of kernel rank <= r with positive denominators realises the forced signs in
R^r (x_q = phi(q) perturbed into general position, y = psi(a) - psi(b)); its chirotope
satisfies every clause (THEORY U7), so an unsatisfiable CNF excludes it.  Nonnegativity is
not used; denominators of either sign are not covered (THEORY L8 (b)).
"""

from __future__ import annotations

from itertools import combinations, product

from .. import claims as claim_of
from .. import clausal
from ..common import Outcome, expect_equal, require_version
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits
from .forced import SCOPE, VARIANTS, family_size, forced, read_pair

FIELDS = {"format", "version", "kind", "m", "n", "variant", "kernel", "rank", "queries", "pairs", "solver", "proof", "claims"}
KERNELS = ("nonnegative", "signed", "signed-any-denominator")
MAX_QUERIES = 24
MAX_M = 64


def _parity(tup: tuple[int, ...]) -> int:
    """+1 or -1: the sign of the permutation that sorts tup (bubble sort, counting swaps)."""
    seq, sign = list(tup), 1
    for end in range(len(seq) - 1, 0, -1):
        for i in range(end):
            if seq[i] > seq[i + 1]:
                seq[i], seq[i + 1] = seq[i + 1], seq[i]
                sign = -sign
    return sign


def build_cnf(k: int, r: int, patterns: list[tuple[int, ...]]) -> tuple[int, list[tuple[int, ...]]]:
    """RR3: (number of variables, clauses) in the canonical order of the spec.

    Variable of the sorted r-subset T of 0..k-1: its position in lexicographic order, + 1
    (true: chi(T) = +1).  chi of a tuple = _parity(tuple) * chi(sorted tuple)."""
    var = {t: i + 1 for i, t in enumerate(combinations(range(k), r))}
    out: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()

    def emit(clause: tuple[int, ...]) -> None:
        key = frozenset(clause)
        if key not in seen:
            seen.add(key)
            out.append(clause)

    emit((1,))
    for A in combinations(range(k), r - 2):
        rest = [x for x in range(k) if x not in A]
        for a, b, c, d in combinations(rest, 4):
            # chi(A,a,b)chi(A,c,d), -chi(A,a,c)chi(A,b,d), chi(A,a,d)chi(A,b,c) not all equal
            tuples = [A + (a, b), A + (c, d), A + (a, c), A + (b, d), A + (a, d), A + (b, c)]
            v = [var[tuple(sorted(t))] for t in tuples]
            p = [_parity(t) for t in tuples]
            e = [p[0] * p[1], -p[2] * p[3], p[4] * p[5]]  # product j = e_j x_(2j) x_(2j+1)
            for t in (1, -1):
                for first in product((1, -1), repeat=3):
                    x = []
                    for j in range(3):  # the assignment making product j equal to t
                        x += [first[j], t * e[j] * first[j]]
                    emit(tuple(-v[i] if x[i] > 0 else v[i] for i in range(6)))
    for s in patterns:
        forced_at = [i for i in range(k) if s[i]]
        for S in combinations(forced_at, r + 1):
            lits = []
            for pos in range(r + 1):
                coeff = (-1) ** pos * s[S[pos]]  # (-1)^k s_(q_k) chi(S \ q_k)
                w = var[S[:pos] + S[pos + 1:]]
                lits.append(w if coeff > 0 else -w)  # "coefficient k is +1"
            emit(tuple(lits))
            emit(tuple(-x for x in lits))
    return len(var), out


def _pattern(queries: list[int], a: int, b: int, n: int) -> tuple[int, ...]:
    """s_q(a, b) for every query (+1: <q,b> - <q,a> >= 2, K(q,a) > K(q,b)), oriented so that
    the first nonzero entry is +1."""
    s = [-forced(q, a, b, n) for q in queries]  # forced() is +1 when K(q,b) > K(q,a)
    first = next((x for x in s if x), 1)
    return tuple(x * first for x in s)


def _read(doc: Node, m: int, n: int, r: int) -> tuple[list[int], list[tuple[int, ...]], int, set[tuple[int, int]]]:
    qnodes = doc["queries"].list(MAX_QUERIES)
    queries = [x.token(m) for x in qnodes]
    if len(queries) < r:
        raise Invalid(doc["queries"].pointer, f"{len(queries)} queries; rank {r} needs at least r = {r}")
    for i in range(1, len(queries)):
        if queries[i] <= queries[i - 1]:
            raise Invalid(qnodes[i].pointer, "the queries must be distinct and listed in increasing order as integers (bit i = character i)")
    patterns: list[tuple[int, ...]] = []
    classes: dict[tuple[int, ...], int] = {}
    pnodes = doc["pairs"].list(10**6)
    if not pnodes:
        raise Invalid(doc["pairs"].pointer, "a rank refutation needs at least one key pair")
    incidences, uniform = 0, set[tuple[int, int]]()
    for e, node in enumerate(pnodes):
        a, b = read_pair(node, m)
        if a == b:
            raise Invalid(node.pointer, "a = b: a pair needs two different keys")
        s = _pattern(queries, a, b, n)
        count = sum(1 for x in s if x)
        if count < r + 1:
            raise Invalid(node.pointer, f"pair {e} forces {count} queries; a pair gives clauses only with at least r + 1 = {r + 1}")
        if s in classes:
            raise Invalid(node.pointer, f"pair {e} has the forced pattern of pair {classes[s]} (up to a global sign)")
        classes[s] = e
        patterns.append(s)
        incidences += count
        uniform.update((q, z) for q, x in zip(queries, s, strict=True) if x for z in (a, b))
    return queries, patterns, incidences, uniform


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj(FIELDS)
    require_version(doc, doc["kind"], 2, "the kind rank-refutation")
    m = doc["m"].int(1, limit=min(limits.max_m, MAX_M))
    n = doc["n"].int(3, limit=limits.max_n)
    variant = doc["variant"].str(VARIANTS)
    kernel = doc["kernel"].str(KERNELS)
    if kernel == "signed-any-denominator":
        raise Invalid("/kernel", "no sign argument holds for denominators of either sign (THEORY L8 (b)): L1 forces no sign of K(q,a) - K(q,b) there; use 'signed' (positive denominators) or 'nonnegative'")
    r = doc["rank"].int(2, MAX_QUERIES)
    solver = doc["solver"].obj({"name", "version"}, {"options"})
    for key in ("name", "version", "options"):
        if solver.has(key):
            solver[key].str()
    claims = doc["claims"].obj({"bound", "variables", "clauses", "witness_inputs"})
    queries, patterns, incidences, uniform = _read(doc, m, n, r)
    k = len(queries)
    variables, clauses = build_cnf(k, r, patterns)
    expect_equal(claims["variables"], claims["variables"].int(0), variables, "the number of variables (sorted r-subsets of the queries)")
    expect_equal(claims["clauses"], claims["clauses"].int(0), len(clauses), "the number of distinct clauses")
    expect_equal(claims["bound"], claims["bound"].int(0), r + 1, "the bound (rank r refuted, so r + 1)")
    proof = doc["proof"].obj({"format", "steps"})
    form = proof["format"].str(("lrat", "drat-rup"))
    if form == "lrat":
        counts = clausal.check_lrat(clauses, clausal.parse_lrat(proof["steps"], variables, limits.max_list), proof["steps"].pointer)
    else:
        counts = clausal.refute(variables, clauses, clausal.parse_steps(proof["steps"], variables, limits.max_list), proof["steps"].pointer)
    count = family_size(uniform, incidences, n, variant)
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs")
    who = f"{solver['name'].str()} {solver['version'].str()}"
    routes = [
        f"L1 forced signs (gap >= 2, factor (n-2)(d-1) >= 1 at n = {n}): {len(patterns)} pairs with distinct patterns, {incidences} forced (query, pair) incidences over {k} queries",
        f"CNF rebuilt by the checker: {variables} variables (sorted {r}-subsets), {len(clauses)} distinct clauses (chirotope normalisation, 3-term Grassmann-Pluecker relations, Cramer clauses)",
        f"{'LRAT' if form == 'lrat' else 'DRAT'} proof (from {who}, not trusted) replayed, RUP steps only{' by their hints' if form == 'lrat' else ''}: {counts['lemmas']} lemmas, {counts['deletions']} deletions ({counts['ignored']} ignored), the empty clause derived",
        f"witness family: {count} inputs ({len(uniform)} uniform, {count - len(uniform)} mixed)",
    ]
    summary = scope_line("rank refutation", m, n, variant, kernel, r, count)
    return Outcome(summary, routes, version=2, claim=claim_of.lower(r + 1, m, n, variant, ("nonnegative", "signed") if kernel == "signed" else ("nonnegative",)))


def scope_line(what: str, m: int, n: int, variant: str, kernel: str, r: int, count: int) -> str:
    """The VALID line of a refuted rank r (also kind rank-extension's)."""
    sign = "with a nonnegative kernel" if kernel == "nonnegative" else "(kernel of any sign)"
    return (
        f"{what} (m={m}, n={n}, {variant}): no normalized head {sign} of kernel rank <= {r} "
        f"{SCOPE[variant]} and whose denominators are > 0 on the {count}-input witness family exists, "
        f"hence feature rank >= {r + 1}" + (" (the rank of Kbar = sum_j K_j)" if variant == "position-dependent" else "")
    )
