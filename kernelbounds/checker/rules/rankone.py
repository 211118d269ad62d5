"""Rule `rank-one-infeasible` (format v2): no rank-one head solves Min-IP at length n on m
bits (THEORY U5), by exact Farkas multipliers.

Why the listed facts prove it.  A rank-one nonnegative kernel phi(q) psi(z) that gives
every query a positive denominator may be taken with phi = 1 and psi >= 0 (all phi(q)
share one sign, and psi has it too); with u(q, z) = psi(z) F(q, z), an input X (query q,
multiset of n-1 others, least level t) on which the head has error < 1/2 gives

    lower(X) = 2 sum_{z in X} u(q, z) - (2t - 1) sum_{z in X} psi(z) > 0,
    upper(X) = (2t + 1) sum_{z in X} psi(z) - 2 sum_{z in X} u(q, z) > 0

(sums with multiplicity, q included).  The file lists inequalities with positive integer
multipliers y.  The checker re-derives every t and coefficient and verifies:
  F1  every listed input is an input (a query token and n-1 tokens), listed once per side;
  F2  the combination sum y * (row) has coefficient 0 on every u(q, z);
  F3  and coefficient <= 0 on every psi(z).
Then on a head the combination would be > 0 (y > 0, at least one row) and <= 0 (psi >= 0):
no such head exists, so r*(m, n) >= 2, and r*(m', n) >= 2 for m' >= m (restriction).
"""

from __future__ import annotations

from ..common import Outcome, require_version
from .. import claims as claim_of
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits

MAX_M = 64


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "m", "n", "positions", "inequalities", "claims"})
    require_version(doc, doc["kind"], 2, "the kind rank-one-infeasible")
    m = doc["m"].int(1, MAX_M, limit=limits.max_m)
    n = doc["n"].int(2, limit=limits.max_n)
    doc["positions"].str(("all",))
    claims = doc["claims"].obj({"lower_bound"})
    items = doc["inequalities"].list(limits.max_list)
    if not items:
        raise Invalid(doc["inequalities"].pointer, "a Farkas certificate needs at least one inequality")
    psi: dict[int, int] = {}
    u: dict[tuple[int, int], int] = {}
    first_touch: dict[object, str] = {}
    seen: set[tuple[int, tuple[int, ...], str]] = set()
    for item in items:
        item.obj({"query", "others", "side", "multiplier"})
        q = item["query"].token(m)
        others = tuple(sorted(x.token(m) for x in item["others"].list(n - 1, length=n - 1)))
        side = item["side"].str(("lower", "upper"))
        y = item["multiplier"].int(1)
        key = (q, others, side)
        if key in seen:
            raise Invalid(item.pointer, "this inequality is listed twice")
        seen.add(key)
        xs = (q, *others)
        t = min((q & z).bit_count() for z in xs)
        for z in xs:
            if side == "lower":
                psi[z] = psi.get(z, 0) - y * (2 * t - 1)
                u[(q, z)] = u.get((q, z), 0) + 2 * y
            else:
                psi[z] = psi.get(z, 0) + y * (2 * t + 1)
                u[(q, z)] = u.get((q, z), 0) - 2 * y
            first_touch.setdefault((q, z), item.pointer)
            first_touch.setdefault(z, item.pointer)
    for (q, z), c in sorted(u.items()):
        if c != 0:
            raise Invalid(first_touch[(q, z)], f"the combination's coefficient on u(q={q}, z={z}) is {c}, not 0")
    for z, c in sorted(psi.items()):
        if c > 0:
            raise Invalid(first_touch[z], f"the combination's coefficient on psi(z={z}) is {c} > 0")
    claimed = claims["lower_bound"].int(0)
    if claimed != 2:
        raise Invalid(claims["lower_bound"].pointer, f"claims r* >= {claimed}, but a rank-one Farkas certificate proves exactly r* >= 2")
    routes = [f"Farkas: {len(items)} inequalities; coefficient 0 on {len(u)} u(q, z), <= 0 on {len(psi)} psi(z)"]
    summary = (
        f"no position-independent rank-one head with a nonnegative kernel solves Min-IP at length {n} on {m} bits (exact Farkas combination of {len(items)} input "
        f"inequalities): r*(m', {n}) >= 2 for every m' >= {m}"
    )
    return Outcome(summary, routes, version=2, claim=claim_of.lower(2, m, n, "position-independent"))  # THEORY U5
