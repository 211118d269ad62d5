"""The work estimate of rule `rank-one-infeasible` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..jsonread import Node
from ..limits import Limits
from ..cost import lin


def work(doc: Node, limits: Limits) -> int:
    """Units (docs/soundness.md, "Cost model"; measured): each listed input costs about
    120 units of reading (the object, n tokens, the sort) and 2n dictionary updates (25 units) of
    coefficients whose height is the multiplier's plus log of the rows summed."""
    n = doc["n"].int(2, limit=limits.max_n)
    rows = doc["inequalities"].value
    count = len(rows) if isinstance(rows, list) else 0
    ys = [r.get("multiplier") for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
    bits = max((y.bit_length() for y in ys if isinstance(y, int) and not isinstance(y, bool)), default=1)
    h = bits + count.bit_length() + 8
    return count * (120 + 2 * n * (25 + lin(h))) + 1000
