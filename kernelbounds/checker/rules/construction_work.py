"""The work estimate of rule `construction` (docs/soundness.md, "Work estimate"): every
route of :mod:`.construction` sized from the document before any work: reading and the
kernel facts (C1), the class route C2 and the rank formulas C4 always, the exhaustive
route C3 and FLINT's rank only when they fit the budget.  The heights are computed from
the document's text with the same rules check() later enforces.
"""

from __future__ import annotations

import re
from typing import Any
from fractions import Fraction
from math import comb

from ..sizes import height, heights, sized, small_int
from ..text import show
from ..errors import LimitExceeded
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs
from ..cost import frac, mul, op, words

EXHAUSTIVE_MAX_M = 24  # route C3 only for tokens that fit a list of 2^m kernel values

RATIONAL_TEXT = re.compile(r"-?[0-9]+(/[0-9]+)?")


def _gram_height(kernel: dict, d: int) -> tuple[int, int] | None:
    """(the largest height of the four Gram entries <f(a), g(b)>, max(bits of the numerator,
    bits of the denominator) of c = <f(1), g(1)>), computed exactly (its cost,
    4 d Fraction products, is counted in the plan's reading work first), or None when the
    factors are not all well-formed rationals of one dimension (check() rejects those)."""
    vecs = [kernel.get(k) for k in ("f0", "f1", "g0", "g1")]
    if not all(isinstance(v, list) and len(v) == d and all(isinstance(x, str) and RATIONAL_TEXT.fullmatch(x) for x in v) for v in vecs):
        return None
    try:
        f0, f1, g0, g1 = ([Fraction(x) for x in v] for v in vecs if isinstance(v, list))
    except ZeroDivisionError:
        return None
    gram = [sum((a * b for a, b in zip(f, g, strict=True)), Fraction(0)) for f in (f0, f1) for g in (g0, g1)]
    return max(x.numerator.bit_length() + x.denominator.bit_length() for x in gram) + 2, max(abs(gram[3].numerator).bit_length(), gram[3].denominator.bit_length())


class Plan:
    """The work of each route, sized from the document before any work (docs/soundness.md).

    ``core`` is the mandatory work (reading, kernel facts, the class route C2, the rank
    formulas C4); the optional routes C3 (exhaustive) and FLINT run only when their old
    limit allows them and core + route stays within the budget (both functions decide
    the same way).  ``entry`` bounds the height (bits) of a kernel weight w(l), l <= m."""

    def __init__(self, doc: Node, limits: Limits):
        doc.obj({"format", "version", "kind", "construction", "m", "n", "positions", "head", "claims"})
        m = doc["m"].int(1, limit=limits.max_m)
        n = doc["n"].int(1, limit=limits.max_n)
        head = doc["head"]
        kernel = sized(head, "kernel")
        kernel = kernel if isinstance(kernel, dict) else {}
        readout = sized(head, "readout")
        readout = readout if isinstance(readout, dict) else {}
        h_read = sum(height(readout.get(k)) for k in ("alpha", "beta", "gamma")) + 2 * m.bit_length()
        ktype = kernel.get("type")
        classes = comb(m + n, n)
        if classes > limits.max_level_classes:
            raise LimitExceeded("/m", f"the number of level classes C(m+n, n) would be {show(classes)}, over the limit {limits.max_level_classes}")
        read, entry = 50 * (m + n), 64
        if ktype == "tensor-power":
            vecs = [heights(kernel.get(k)) for k in ("f0", "f1", "g0", "g1")]
            d = max(len(v) for v in vecs)
            h_gram = sum(max(v, default=64) for v in vecs) * max(d, 1)  # a sum of d products
            read += 4 * d * 4 * frac(h_gram) + sum(sum(v) for v in vecs)
            exact = _gram_height(kernel, d) if read <= limits.work_budget else None
            entry = m * (h_gram if exact is None else exact[0])
            # the class route scales c^0..c^p (c = <f(1), g(1)>; the other Gram entries are 1
            # or the file is rejected first) to a^l b^(p-l): at most m max(bits a, bits b) bits
            level_entry = entry if exact is None else m * exact[1] + 1
        elif ktype == "softmax-bilinear":
            b_bits = height(kernel.get("exp_beta"))
            rows: list[list[Any]] = [r if isinstance(r, list) else [] for r in (sized(Node(kernel), k) for k in ("W_Q", "W_K"))]
            d = max(len(rows[0]), len(rows[1]))
            # g = (W_Q^T W_K)_11 exactly, from the first column: the powers b^(g l) are built only
            # after W_Q^T W_K = g I is verified (and malformed entries are rejected before that)
            col = [[small_int(sized(Node(r), 0), 0, -(2**20), 2**20) if isinstance(r, list) else 0 for r in rs] for rs in rows]
            g = abs(sum(a * b for a, b in zip(*col, strict=True))) if len(col[0]) == len(col[1]) else 0
            if len(col[0]) == len(col[1]) and 3 * d * m * m <= 10**6 and not _is_scalar(rows, m):
                g = 0  # not level-determined: rejected before any power is built
            read += 2 * d * m * 4 + 3 * d * m * m  # the entries and W_Q^T W_K
            entry = max(g, 1) * m * b_bits
        elif ktype == "level-expansion":
            hs = heights(kernel.get("differences"))
            h_h = sum(hs[: m + 1]) + m + 64  # h(l) = sum_j g_j C(l, j)
            read += (m + 1) ** 2 * (2 * frac(h_h) + mul(m)) + (m + 1) * frac(h_h)
            entry = h_h
        h_class = (level_entry if ktype == "tensor-power" else entry) + h_read + 64
        powers = (m + 1) ** 2 * (mul(entry) * max(entry.bit_length(), 1) + frac(h_class))
        # route C2 in integers (worst_by_classes): per class a few additions to running sums
        # and two products of the compared cross-multiplication, the products dominating
        self.core = read + powers + classes * (2 * mul(h_class) + 1)
        self.m, self.n, self.entry = m, n, entry
        self.exhaustive = None
        if m <= EXHAUSTIVE_MAX_M and exhaustive_inputs(m, n) <= limits.exhaustive_inputs:
            inputs = exhaustive_inputs(m, n)
            rows_work = 2**m * (2**m * (mul(entry) + 6 * frac(h_read) + 6) + (m + 1) ** 2 * mul(entry))  # kernel row, readout row scaled
            self.exhaustive = rows_work + inputs * (n * (2 * mul(entry + h_read) + 6 + op(m)) + 6 * mul(2 * entry + h_read) + 20)
        self.flint = None
        if m <= limits.rank_m:
            side = 2**m
            self.flint = side * side * mul(entry) + side**3 * words(entry + 2 * m) // 8
        self.total = self.core
        for route in ("exhaustive", "flint"):
            cost = getattr(self, route)
            if cost is not None and self.total + cost > limits.work_budget:
                setattr(self, route, None)
            elif cost is not None:
                self.total += cost


def _is_scalar(rows: list[list], m: int) -> bool:
    """Whether W_Q^T W_K = g I (for sizing only: entries that are not integers count as 0)."""
    wq, wk = ([[small_int(x, 0, -(2**20), 2**20) for x in r] if isinstance(r, list) else [] for r in rs] for rs in rows)
    # strict=False: sizing reads the document before it is validated (W_Q and W_K may differ in length)
    s = [[sum(a[i] * b[j] for a, b in zip(wq, wk, strict=False) if len(a) > i and len(b) > j) for j in range(m)] for i in range(m)]
    return all(s[i][j] == (s[0][0] if i == j else 0) for i in range(m) for j in range(m))




def work(doc: Node, limits: Limits) -> int:
    """The plan's total (construction_work.py)."""
    return Plan(doc, limits).total
