"""The work estimate of rule `transcript` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..jsonread import Node
from ..limits import Limits
from ..cost import op
from .transcript import sizes


def work(doc: Node, limits: Limits) -> int:
    """Reading items x n tokens of m bits, then items x q x n inner products."""
    q, _, m, n, items = sizes(doc, limits)
    return len(items) * (n * 4 * op(m) + q * n * 3 * op(m) + 2 * q + 10)
