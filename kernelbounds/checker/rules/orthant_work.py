"""The work estimate of rule `orthant` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..errors import LimitExceeded
from ..jsonread import Node
from ..limits import Limits
from .forced_work import family_work, level_work
from .orthant import FIELDS, OPTIONAL, read_sizes


def work(doc: Node, limits: Limits) -> int:
    """P t (2 op(m) + 4) for the levels plus P t (n+1)(n+4) for the family (an upper bound)."""
    doc.obj(FIELDS, OPTIONAL)
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(3, limit=limits.max_n)
    t, count = read_sizes(doc, limits)
    if count > limits.max_list:
        raise LimitExceeded("/family/pairs", f"{count} pairs, over max_list = {limits.max_list}")
    return count * t * (level_work(m) + family_work(n))
