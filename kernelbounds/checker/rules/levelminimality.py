"""Rule `level-family-minimality` (format v2): a lower bound on the least feature rank of the
complement-basis affine-readout level family at every m <= max_m (THEORY §2 U4', "Minimality").

The family at (m, n): H(x) = sum_(j <= m) g_j C(x, j) (x = |q \\ z| = p - l), affine readout,
signs `any` or `nonnegative` (g >= 0).  A head of it that solves Min-IP at length n on m bits
has H(d) >= 0 for d <= m (a nonnegative kernel) and, for every level class (p; l_2..l_n) with
p <= m and t its least level, the strict row sum_(l in p, l_2..l_n) (l - t - 1) H(p - l) < 0
(the upper side of |y - t| < 1/2 with eps > 0 removed).  Checked facts
(docs/certificate-format-v2.md):
  MN1 prefix k (entry k of `prefixes`): the multipliers y > 0 name weight rows -H(d) <= 0 with
      d <= reach + 1 and class rows with p <= reach + 1, some class row among them; their
      combination on g_0..g_k is 0 (any) or >= 0 (nonnegative).  Then no g supported on [0..k]
      satisfies the classes with p <= reach + 1: L(k) <= reach.  Prefixes past the list have no
      bound (L = infinity).
  MN2 (optional) witness g_0..g_k: g >= 0 when the signs say so, H(d) > 0 for d <= reach, and
      every extreme class (p; 0, p - u, ..., p - u), 0 <= u <= p <= reach, has its row < 0; every
      class row with p <= reach is an average of those, so L(k) >= reach (exact).
  MN3 the chain bound: every support S = {0 = j_0 < j_1 < ...} that solves at m has
      j_(i+1) <= L(j_i) + 1 while L(j_i) < m, and L(j_last) >= m; the checker's own dynamic
      program gives the least cost sum C(m, j_i) over such chains for m = 1..max_m, each claimed
      bound must equal it, and each listed chain must be such a chain of that cost.
"""

from __future__ import annotations


from fractions import Fraction
from itertools import pairwise
from math import comb

from ..common import Outcome, expect_equal, rat, require_version
from ..errors import Invalid, Malformed
from ..jsonread import Node
from ..limits import Limits

MAX_M = 1024


def _class_row(p: int, levels: list[int], k: int) -> list[int]:
    """sum_(l in p, levels) (l - t - 1) C(p - l, j) for j = 0..k (THEORY U4, eps eliminated)."""
    all_levels = [p, *levels]
    t = min(all_levels)
    return [sum((l - t - 1) * comb(p - l, j) for l in all_levels) for j in range(k + 1)]


def _read_row(item: Node, n: int, k: int, top: int) -> tuple[list[int], bool]:
    """(the row on g_0..g_k, is it a class row) named by one multiplier entry."""
    if item.has("weight"):
        item.obj({"weight", "y"})
        d = item["weight"].int(0, MAX_M)
        if d > top:
            raise Invalid(item["weight"].pointer, f"the weight row d = {d} is past reach + 1 = {top}: it need not hold at m = {top}")
        return [-comb(d, j) for j in range(k + 1)], False
    item.obj({"class", "y"})
    entries = item["class"].list(n, length=n)
    p = entries[0].int(0, MAX_M)
    if p > top:
        raise Invalid(entries[0].pointer, f"the class has p = {p} > reach + 1 = {top}: it does not occur at m = {top}")
    levels = [x.int(0, p) for x in entries[1:]]
    if levels != sorted(levels):
        raise Malformed(item["class"].pointer, "the levels l_2..l_n of a class are listed in increasing order")
    return _class_row(p, levels, k), True


def _check_refutation(node: Node, n: int, k: int, reach: int, nonneg: bool, limits: Limits) -> None:
    """MN1: the Motzkin combination for the prefix [0..k] at p <= reach + 1."""
    items = node.list(limits.max_list)
    total = [Fraction(0)] * (k + 1)
    classes = 0
    for item in items:
        row, is_class = _read_row(item, n, k, reach + 1)
        y = item["y"].rational()
        if y <= 0:
            raise Invalid(item["y"].pointer, f"multiplier {rat(y)} is not > 0")
        classes += is_class
        total = [t + y * c for t, c in zip(total, row, strict=True)]
    if not classes:
        raise Invalid(node.pointer, "no class row has a multiplier: the weight rows -H(d) <= 0 alone are satisfiable (g = (1, 0, ...))")
    for j, v in enumerate(total):
        if v < 0 or (v > 0 and not nonneg):
            raise Invalid(node.pointer, f"the combination has coefficient {rat(v)} on g_{j}; Motzkin needs 0" + (" or > 0 (g_j >= 0)" if nonneg else ""))


def _check_witness(node: Node, n: int, k: int, reach: int, nonneg: bool) -> None:
    """MN2: the witness satisfies every class with p <= reach, through the extreme classes."""
    g = [x.rational() for x in node.list(k + 1, length=k + 1)]
    if nonneg:
        for j, gj in enumerate(g):
            if gj < 0:
                raise Invalid(node[j].pointer, f"g_{j} = {rat(gj)} < 0 in a family with g >= 0")
    for d in range(reach + 1):
        h = sum((gj * comb(d, j) for j, gj in enumerate(g)), Fraction(0))
        if h <= 0:
            raise Invalid(node.pointer, f"H({d}) = {rat(h)} is not > 0")
    for p in range(reach + 1):
        for u in range(p + 1):
            row = _class_row(p, [0] + [p - u] * (n - 2), k)
            value = sum((c * gj for c, gj in zip(row, g, strict=True)), Fraction(0))
            if value >= 0:
                raise Invalid(node.pointer, f"the class (p = {p}; one key at x = {p}, {n - 2} at x = {u}) has row value {rat(value)} >= 0: the witness does not solve m = {reach}")


def _chain_dp(reach: list[int], m: int) -> int | None:
    """The least sum C(m, j_i) over chains 0 = j_0 < ... <= m with j_(i+1) <= L(j_i) + 1 and
    L(j_last) >= m (L(j) = reach[j], infinite past the list)."""
    big = m + 1  # any reach >= m is as good as infinity here

    def L(j: int) -> int:
        return reach[j] if j < len(reach) else big

    least: list[int | None] = [1] + [None] * m
    for j in range(1, m + 1):
        costs = [c for i in range(j) if (c := least[i]) is not None and j <= L(i) + 1]
        least[j] = min(costs) + comb(m, j) if costs else None
    ends = [c for j in range(m + 1) if (c := least[j]) is not None and L(j) >= m]
    return min(ends) if ends else None


def _check_chain(node: Node, reach: list[int], m: int, bound: int) -> None:
    items = node.list(m + 1)
    chain = [x.int(0, m) for x in items]
    if not chain or chain[0] != 0 or any(b <= a for a, b in pairwise(chain)):
        raise Invalid(node.pointer, "a chain is a strictly increasing list starting at 0")
    for i, (a, b) in enumerate(pairwise(chain)):
        if a < len(reach) and b > reach[a] + 1:
            raise Invalid(items[i + 1].pointer, f"j = {b} > L({a}) + 1 = {reach[a] + 1}")
    if chain[-1] < len(reach) and reach[chain[-1]] < m:
        raise Invalid(items[-1].pointer, f"the chain ends at j = {chain[-1]} with L({chain[-1]}) = {reach[chain[-1]]} < m = {m}")
    cost = sum(comb(m, j) for j in chain)
    if cost != bound:
        raise Invalid(node.pointer, f"the chain costs {cost}, not the bound {bound}")


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "n", "basis", "readout", "signs", "prefixes", "claims"})
    require_version(doc, doc["kind"], 2, "the kind level-family-minimality")
    n = doc["n"].int(2, limit=limits.max_n)
    doc["basis"].str(("complement",))
    doc["readout"].str(("affine",))
    signs = doc["signs"].str(("any", "nonnegative"))
    nonneg = signs == "nonnegative"
    claims = doc["claims"].obj({"max_m", "chain_bounds"})
    max_m = claims["max_m"].int(1, MAX_M, limit=limits.max_m)
    entries = doc["prefixes"].list(max_m + 1)
    reach: list[int] = []
    exact: list[int] = []
    for k, entry in enumerate(entries):
        entry.obj({"reach", "refutation"}, {"witness"})
        L = entry["reach"].int(0, MAX_M)
        _check_refutation(entry["refutation"], n, k, L, nonneg, limits)  # MN1
        if entry.has("witness"):
            _check_witness(entry["witness"], n, k, L, nonneg)  # MN2
            exact.append(k)
        reach.append(L)
    rows = claims["chain_bounds"].list(max_m, length=max_m)
    bounds = []
    for i, row in enumerate(rows):
        row.obj({"m", "bound", "chain"})
        m = row["m"].int(i + 1, i + 1)
        derived = _chain_dp(reach, m)  # MN3
        if derived is None:  # the listed reaches would exclude every support, against U2's full support
            raise Invalid(row.pointer, f"no chain reaches m = {m} under the listed reaches")
        expect_equal(row["bound"], row["bound"].int(1), derived, f"the chain bound at m = {m}")
        _check_chain(row["chain"], reach, m, derived)
        bounds.append(derived)
    family = f"complement basis, affine readout, {'g >= 0' if nonneg else 'any signs'}, n = {n}"
    shown = ", ".join(f"{bounds[m - 1]} at m = {m}" for m in (16, 32, 64) if m <= max_m)
    tight = "all exact" if len(exact) == len(reach) else f"exact for {len(exact)} of them (witnesses)"
    routes = [
        f"reach: L(k) <= {reach} for k = 0..{len(reach) - 1} by exact Motzkin combinations ({tight}); no bound assumed for k >= {len(reach)}",
        f"chain bound: the dynamic program over j_(i+1) <= L(j_i) + 1 recomputed for m = 1..{max_m}; every listed chain checked",
    ]
    summary = (
        f"level-family minimality ({family}): every support of the family that solves Min-IP at length {n} on m bits has "
        f"feature rank >= the claimed chain bound, for every m = 1..{max_m}" + (f" ({shown})" if shown else "")
    )
    claim = {"side": "family-minimum", "n": n, "family": {"basis": "complement", "readout": "affine", "signs": signs}, "chain_bounds": bounds}  # THEORY U4' Minimality (bounds[m - 1] at m)
    return Outcome(summary, routes, version=2, claim=claim)
