"""Rule `rank-extension` (format v2): a committed rank refutation plus disjoint edges,
THEORY §2 U7+ ("Disjoint edges add one rank each").

Checked facts (docs/certificate-format-v2.md, kind `rank-extension`):
  RE0  sizes: at most MAX_EDGES edges, the base's pairs x 2^j extended pairs within
       max_list; the work estimate includes the search for the base (every candidate's
       bytes, bounded before any is read) and the base's own estimate;
  RE1  the base: a file whose bytes have the sha256 `base/sha256` among the candidates of
       checker/bases.py (read once, under the reading limits of any input), of kind
       rank-refutation, which the checker accepts (checked once per check);
  RE2  n, variant and kernel equal the base's; m = m0 + 2j (m0 the base's m, j edges);
  RE3  every edge is two coordinates m0 <= u < v < m; the edges are pairwise disjoint;
  RE4  claims/rank = r0 + j and claims/bound = r0 + j + 1 (r0 the base's refuted rank,
       re-derived by the base's own check: its claim's value minus one);
  RE5  the witness family's size: for every base pair (a, b) and each of the 2^j ways to
       put every edge wholly beside a or wholly beside b, the pair (a + A', b + B'), with the
       three inputs (variant placements) of every query forced on it (the base's forced
       queries and the j edges).
Why (THEORY U7+, the trusted step): if the queries Q1 on coordinates V1 plus an edge e
disjoint from V1 have a realisation in R^r of the patterns (A + e, B) and (A, B + e), then
Q1 has one in R^(r-1) of every pattern (A, B): the cone of y realising (A, B) on Q1 is
convex and holds y+ with <x_e, y+> > 0 and y- with <x_e, y-> < 0, so it meets x_e^perp, and
projecting the x_q onto that hyperplane keeps every sign.  By induction over the j edges a
head of kernel rank <= r0 + j solving the composite family would give a realisation of the
base's family in R^r0, which the base's clausal proof excludes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import claims as claim_of
from ..bases import Bases, Found, sha256
from ..common import Outcome, expect_equal, require_version
from ..errors import Invalid, LimitExceeded, Malformed
from ..jsonread import Node
from ..limits import Limits
from .forced import VARIANTS, family_size, forced
from .rankrefutation import scope_line

if TYPE_CHECKING:
    from ..search import Search
    from ..verdict import Verdict

FIELDS = {"format", "version", "kind", "m", "n", "variant", "kernel", "base", "edges", "claims"}
BASE_KIND = "rank-refutation"
MAX_EDGES = 24
MAX_M = 64
HEX = re.compile(r"[0-9a-f]{64}")
NAME = re.compile(r"[A-Za-z0-9._-]{1,200}")


def base_ref(doc: Node) -> tuple[str, str | None]:
    """(sha256, hinted file name or None) from /base."""
    node = doc["base"].obj({"sha256"}, {"name"})
    digest = node["sha256"].str()
    if not HEX.fullmatch(digest):
        raise node["sha256"].fail("expected the sha256 of the base file: 64 lowercase hexadecimal digits")
    name = node["name"].str() if node.has("name") else None
    if name is not None and not NAME.fullmatch(name):
        raise node["name"].fail("a file name hint: 1..200 characters among letters, digits, '.', '_' and '-' (no folder)")
    return digest, name


def service(search: Search, limits: Limits, parse: Callable[[bytes, Limits], Node], judge: Callable[[Node, str], Verdict]) -> Bases:
    """The service that gives this check its base (checker/bases.py)."""
    return Bases(search, limits, parse, judge)


def base_document(bases: Bases, found: Found, where: str) -> Node | None:
    """The named file's document, or None when it is not a certificate of kind BASE_KIND (a
    reading limit is a resource limit at ``where``)."""
    try:
        base = bases.document(found)
    except LimitExceeded as exc:
        raise LimitExceeded(where, f"the base {found.path}: {exc.reason}") from None
    except Malformed:
        return None
    return base if isinstance(base.value, dict) and base.value.get("kind") == BASE_KIND else None


def _read_edges(doc: Node, m0: int, m: int) -> list[tuple[int, int]]:
    """RE3: edges [u, v] with m0 <= u < v < m, pairwise disjoint."""
    out: list[tuple[int, int]] = []
    used: dict[int, int] = {}
    nodes = doc["edges"].list(MAX_EDGES)
    if not nodes:
        raise Invalid(doc["edges"].pointer, "a rank extension needs at least one edge (with none it is the base itself)")
    for i, node in enumerate(nodes):
        ends = node.list(2, length=2)
        u, v = ends[0].int(0), ends[1].int(0)
        if not u < v:
            raise Invalid(node.pointer, f"an edge [u, v] needs u < v, got [{u}, {v}]")
        for x, end in ((u, ends[0]), (v, ends[1])):
            if not m0 <= x < m:
                raise Invalid(end.pointer, f"coordinate {x} is not among the new coordinates {m0}..{m - 1}: an edge must miss the base's coordinates 0..{m0 - 1} and fit in m = {m}")
            if x in used:
                raise Invalid(end.pointer, f"coordinate {x} is also in edge {used[x]}: the edges must be pairwise disjoint")
            used[x] = i
        out.append((u, v))
    return out


def _base_facts(base: Node, m0: int, limits: Limits) -> tuple[list[int], list[tuple[int, int]]]:
    """The base's queries and pairs as integers (the base's check has validated them)."""
    queries = [x.token(m0) for x in base["queries"].list(limits.max_list)]
    pairs = [(p["a"].token(m0), p["b"].token(m0)) for p in base["pairs"].list(limits.max_list)]
    return queries, pairs


def family(queries: list[int], pairs: list[tuple[int, int]], edges: list[tuple[int, int]], n: int, variant: str) -> tuple[int, int, int]:
    """RE5: (extended pairs, forced incidences, |W|) of the composite witness family."""
    masks = [(1 << u) | (1 << v) for u, v in edges]
    allq = queries + masks
    uniform: set[tuple[int, int]] = set()
    incidences = count = 0
    for a, b in pairs:
        for choice in range(1 << len(masks)):
            ea, eb = a, b
            for i, e in enumerate(masks):
                if choice >> i & 1:
                    eb |= e
                else:
                    ea |= e
            count += 1
            for q in allq:
                if forced(q, ea, eb, n):
                    incidences += 1
                    uniform.add((q, ea))
                    uniform.add((q, eb))
    return count, incidences, family_size(uniform, incidences, n, variant)


def check(doc: Node, limits: Limits, bases: Bases) -> Outcome:
    doc.obj(FIELDS)
    require_version(doc, doc["kind"], 2, "the kind rank-extension")
    m = doc["m"].int(1, limit=min(limits.max_m, MAX_M))
    n = doc["n"].int(3, limit=limits.max_n)
    variant = doc["variant"].str(VARIANTS)
    kernel = doc["kernel"].str(("nonnegative", "signed"))
    claims = doc["claims"].obj({"bound", "rank", "witness_inputs"})
    digest, name = base_ref(doc)
    where = doc["base"]["sha256"].pointer
    found = bases.find(digest, name)
    if found is None:
        raise Invalid(where, "no file with this sha256 among the certificate's folder and the paths given explicitly (--base PATH): the base refutation is missing")
    path = found.path
    if sha256(found.data) != digest:  # the search is not trusted: the bytes decide
        raise Invalid(where, f"the file found for this sha256 ({path}) has another sha256")
    base = base_document(bases, found, where)
    if base is None:
        raise Invalid(where, f"the file with this sha256 ({path}) is not a {BASE_KIND} certificate")
    verdict = bases.verdict(found)
    if not verdict.ok:
        raise Invalid(where, f"the checker rejects the base {path} (at {verdict.pointer or '/'}: {verdict.reason[:300]})")
    base_claim = verdict.claim
    if base_claim is None or base_claim.get("side") != "lower":
        raise Invalid(where, f"the base {path} states no lower bound on r*")
    m0, r0 = base_claim["m"], base_claim["value"] - 1
    base_variant, base_kernel = base["variant"].value, base["kernel"].value
    expect_equal(doc["n"], n, base_claim["n"], "n (the base's)")
    if variant != base_variant:
        raise Invalid("/variant", f"the variant {variant!r} differs from the base's {base_variant!r}")
    if kernel != base_kernel:
        raise Invalid("/kernel", f"the kernel class {kernel!r} differs from the base's {base_kernel!r}")
    edges = _read_edges(doc, m0, m)
    j = len(edges)
    expect_equal(doc["m"], m, m0 + 2 * j, f"m (the base's m0 = {m0} plus two coordinates per edge)")
    expect_equal(claims["rank"], claims["rank"].int(0), r0 + j, f"the refuted rank (the base's r0 = {r0} plus one per edge)")
    expect_equal(claims["bound"], claims["bound"].int(0), r0 + j + 1, "the bound (refuted rank + 1)")
    queries, pairs = _base_facts(base, m0, limits)
    extended, incidences, count = family(queries, pairs, edges, n, variant)
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs")
    r = r0 + j
    routes = [
        f"base {path} (sha256 {digest[:16]}...): the checker accepts it: {verdict.summary}",
        f"{j} edge(s) {', '.join(f'{{{u},{v}}}' for u, v in edges)}: pairwise disjoint and disjoint from the base's coordinates 0..{m0 - 1}, m = {m0} + 2*{j} = {m}",
        f"THEORY U7+ applied {j} time(s) (the trusted lemma: a disjoint edge adds one to the refuted rank): rank {r0} refuted at m = {m0} gives rank {r} refuted at m = {m}",
        f"witness family: {len(pairs)} base pairs x 2^{j} edge placements = {extended} pairs, {incidences} forced (query, pair) incidences over {len(queries) + j} queries, {count} inputs",
    ]
    summary = scope_line("rank extension", m, n, variant, kernel, r, count)
    return Outcome(summary, routes, version=2, claim=claim_of.lower(r + 1, m, n, variant, tuple(base_claim["kernels"])))
