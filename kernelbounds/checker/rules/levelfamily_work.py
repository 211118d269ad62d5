"""The work estimate of rule `level-family` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from typing import Any
from math import comb
from .extremeclasses import count
from ..sizes import row_height
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs
from ..cost import frac, lin, mul, mul2, op
from . import extremeclasses
from .levelfamily import EXPLICIT_M, covering_nodes, flint_units, full_classes, rank_bound


def _coverage_units(m: int, bound: int, refuted: int) -> int:
    """The coverage walk's units: the binomials C(m, i) once, then at most m + 1 stack steps
    per leaf (support), each leaf's maximality test (m compares of m-bit numbers) and its
    containment test against every refuted support (m-bit masks)."""
    leaves = covering_nodes(m, bound)
    return (m + 1) * mul(m) * m.bit_length() + leaves * ((m + 1) * (4 + op(m)) + (m + refuted) * op(m) + refuted)


def work(doc: Node, limits: Limits) -> int:
    """Units (docs/soundness.md, "Cost model") from the heights of the numbers check()
    builds, before any work: a weight w(d) = sum_j g_j C(d, j) has the height
    H_w of the g_j's largest numerator plus the lcm of all their denominators, plus m
    bits of binomials; a class sum adds the readout row's height H_f(p); every class
    costs 2n + 4 Fraction operations at twice that height.  The FLINT route is counted
    (and run) only when it fits (``flint_units``); the Motzkin rows at the height of
    their common denominator (``_motzkin_units``)."""
    v: dict[str, Any] = doc.value if isinstance(doc.value, dict) else {}
    m, n = v.get("m"), v.get("n")
    if not isinstance(m, int) or not isinstance(n, int) or isinstance(m, bool) or isinstance(n, bool) or m < 1 or n < 1:
        return 1
    m, n = min(m, limits.max_m), min(n, limits.max_n)
    h_w = sum(row_height(v.get("differences"))) + m + (m + 1).bit_length()
    rows = _readout_heights(v.get("readout"), m)
    ro: dict[str, Any] = v["readout"] if isinstance(v.get("readout"), dict) else {}
    basis, readout = str(v.get("basis")), str(ro.get("type"))
    total = (m + 1) ** 2 * frac(h_w)
    if extremeclasses.applies(basis, readout):  # LF3x: the extreme-class check
        total += extreme_classes_work(m, n, h_w)
    if full_classes(basis, readout, m, n):  # LF3's enumeration
        total += sum(comb(p + n - 1, n - 1) * (2 * n + 4) * frac(2 * (h_w + rows[p]) + 8) for p in range(m + 1))
    if m <= EXPLICIT_M and exhaustive_inputs(m, n) <= limits.exhaustive_inputs:  # as check() decides
        h = h_w + max(rows)
        total += exhaustive_inputs(m, n) * ((3 * n + 12) * lin(h) + 2 * frac(2 * h)) + 2**m * 2**m * (2**m + 4) * lin(h)
    flint = flint_units(v.get("differences"), m, limits)
    if flint is not None:  # plus building the rows: explicit features up to m = 6, else the formula
        total += flint + 2**m * 2**m * ((2**m if m <= EXPLICIT_M else m) + 8) * lin(h_w)
    mini = v.get("minimality")
    if isinstance(mini, dict):
        refuted: list[Any] = mini["refuted"] if isinstance(mini.get("refuted"), list) else []
        total += sum(_motzkin_units(r, m, n) for r in refuted) + _coverage_units(m, rank_bound(v.get("differences"), m), len(refuted))
    return total


def _readout_heights(readout: object, m: int) -> list[int]:
    """H_f(p) for p = 0..m: eps's height (affine) or row p's (free), plus log m."""
    ro = readout if isinstance(readout, dict) else {}
    if ro.get("type") == "free" and isinstance(ro.get("table"), list):
        table = ro["table"]
        return [sum(row_height(table[p] if p < len(table) else [])) + m.bit_length() for p in range(m + 1)]
    return [sum(row_height([ro.get("eps")])) + m.bit_length()] * (m + 1)


def _motzkin_units(refuted: object, m: int, n: int) -> int:
    """One refuted support's Motzkin combination: the multipliers y are brought to their
    common denominator L (height: largest numerator + the distinct denominators), then
    every row's n (m + 1) coefficients are added as integers of that height + m + 16."""
    mults = refuted.get("multipliers") if isinstance(refuted, dict) else None
    if not isinstance(mults, list):
        return 0
    ys = [x.get("y") for x in mults if isinstance(x, dict)]
    num, den = row_height(ys)
    h = num + den + m + 16
    return len(mults) * ((n + 1) * (m + 1) * (4 + lin(h)) + 2 * mul2(den, h) + 30)


def extreme_classes_work(m: int, n: int, h_w: int) -> int:
    """Units of everything an LF3x file costs besides parsing: LF1's m + 1 weights in
    Fractions ((m + 1)^2 operations at height h_w), the readout table (one Fraction per
    (p, l)), the m + 1 integer kernel values, then per extreme class six products and four
    compares at height 2 h_w + log2(n m) + 8, and two Fractions at the end."""
    h = 2 * h_w + (n * m + 1).bit_length() + 8
    lf1 = (m + 1) ** 2 * 2 * frac(h_w) + count(m) * frac(64)
    return lf1 + (m + 1) ** 2 * (mul(h_w) + op(h_w)) + count(m) * (6 * mul(h) + 4 * op(h)) + 4 * frac(h)
