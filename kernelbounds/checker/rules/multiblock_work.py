"""The work estimate of rule `multi-block-level-family` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from math import prod
from typing import Any

from ..cost import frac, lin, mul, op
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs
from ..sizes import read_cost, row_height
from .multiblock import MAX_BLOCKS, literal_applies


def work(doc: Node, limits: Limits) -> int:
    """Units (docs/soundness.md, "Cost model") from the sizes and the heights of the numbers
    check() builds, before any work: P = prod (h_i + 1) points; T terms; L H(x) has the
    height h_H of the largest scaled g (numerator + the lcm of the denominators) + m bits
    of binomials + log T; each point costs T term products (b small products and one
    product at h_H); the classes P (m + 1) pairs of candidates, 8 products and 4 compares
    at 2 h_H + log(n m) + 8 bits each; MB8 when it runs."""
    v: dict[str, Any] = doc.value if isinstance(doc.value, dict) else {}
    m, n, blocks = v.get("m"), v.get("n"), v.get("blocks")
    if not (isinstance(m, int) and isinstance(n, int) and isinstance(blocks, list)) or isinstance(m, bool) or isinstance(n, bool) or m < 1 or n < 1:
        return 1
    m, n = min(m, limits.max_m), min(n, limits.max_n)
    sizes = [h if isinstance(h, int) and not isinstance(h, bool) and 0 < h <= m else m for h in blocks[:MAX_BLOCKS]] or [m]
    points = prod(h + 1 for h in sizes)
    terms: list[Any] = v["terms"] if isinstance(v.get("terms"), list) else []
    gs = [t.get("g") for t in terms if isinstance(t, dict)]
    num, den = row_height(gs)
    h_H = num + den + m + len(terms).bit_length() + 1
    h = 2 * h_H + (n * m + 1).bit_length() + 8
    b = len(sizes)
    total = read_cost(gs) + len(terms) * (b + 4) + len(gs) * (mul(den) + frac(num + den))
    total += points * (len(terms) * (b * mul(64) + mul(h_H) + op(h_H)) + 2 * op(h_H) + b)
    total += points * (m + 1) * 2 * (8 * mul(h) + 4 * op(h)) + 8 * frac(h)
    if literal_applies(m, n, limits):
        tokens = 2**m
        total += tokens * tokens * (tokens + 4) * lin(h_H) + exhaustive_inputs(m, n) * ((3 * n + 12) * lin(h) + 2 * frac(2 * h)) + tokens**3 * (h_H // 64 + 1)
    return total
