"""The work estimate of rule `rank` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from typing import Any
from ..sizes import heights, length, sized
from ..jsonread import Node
from ..limits import Limits, require
from ..cost import frac, mul, op, words


def work(doc: Node, limits: Limits) -> int:
    """Level kernels: the differences ((m+1)^2 Fractions), the minor (side^2 entries) and
    its rank mod p (side^3 word operations in FLINT, 1/200 unit each: 14 s at side 4096).  Feature kernels:
    tokens^2 x dim Fraction products and sums (the kernel table), the lcm and scaling of
    tokens^2 values, FLINT's exact rank (tokens^3 operations on entries of the table's
    height), then the minor as for level kernels."""
    doc.obj({"format", "version", "kind", "m", "kernel", "claims", "lower", "upper"})
    m = doc["m"].int(1, limit=limits.max_m)
    kernel = doc["kernel"]
    ktype = kernel["type"].str(("level", "features"))
    low = sized(doc, "lower")
    low = low if isinstance(low, dict) else {}
    if ktype == "level":
        require(m <= limits.rank_cert_m, "/m", "the kernel matrix side 2^m", 2**m, 2**limits.rank_cert_m)
        side = 2**m
        hs = heights(sized(kernel, "h"))
        h_h = sum(hs[: m + 1]) + m + 64
        total = (m + 1) ** 2 * 2 * frac(h_h) + (m + 1) * frac(h_h) + side * 4
        entry = h_h
    else:
        tokens = length(sized(kernel, "tokens"))
        side = tokens
        rows: list[list[Any]] = [r if isinstance(r, list) else [] for r in (sized(kernel, k) for k in ("phi_q", "phi_k"))]
        dim = max((length(r) for rs in rows for r in rs), default=0)
        row_h = [[sum(heights(r)) for r in rs] for rs in rows]
        h_value = max(row_h[0], default=64) + max(row_h[1], default=64)
        h_lcm = sum(row_h[0]) + sum(row_h[1]) + 64  # every value's denominator divides the product of all
        entry = h_lcm + h_value
        total = tokens * (m + 20) + tokens * tokens * (max(dim, 1) * 2 * frac(h_value) + mul(h_lcm) + frac(entry) + 40)
        total += tokens**3 * words(entry + 2 * tokens.bit_length()) // 8  # FLINT exact rank (fraction-free)
    minor = max(length(low.get("rows")), side if low.get("rows") == "all" else 0)
    total += minor * minor * (op(entry) + mul(entry) // 8 + 8) + minor**3 // 200 + minor * (m + 20) * 2
    return total
