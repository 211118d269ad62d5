"""The work estimate of rule `crossing` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..sizes import length, sized
from ..jsonread import Node
from ..limits import Limits
from ..cost import op
from .forced_work import family_work, level_work
from .crossing import FIELDS, OPTIONAL, read_sizes


def work(doc: Node, limits: Limits) -> int:
    """k 2^m (2 op(m) + 4) + (total cycle length)(4 op(m) + 6) + k 2^m (n+1)(n+4)."""
    doc.obj(FIELDS, OPTIONAL)
    m, k = read_sizes(doc, limits)
    n = doc["n"].int(3, limit=limits.max_n)
    cycles = sized(doc, "cycles")
    steps = 0
    for c in cycles if isinstance(cycles, list) else []:
        steps += length(c.get("steps")) if isinstance(c, dict) else 0
    return k * 2**m * (level_work(m) + family_work(n)) + steps * (4 * op(m) + 6)
