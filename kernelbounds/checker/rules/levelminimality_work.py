"""The work estimate of rule `level-family-minimality` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from typing import Any
from ..sizes import digits_bits
from ..jsonread import Node
from ..limits import Limits
from ..cost import frac, mul2, op, rational_bits
from .levelminimality import MAX_M


def accumulation_units(values: list, term_bits: int, width: int) -> int:
    """Units for ``width`` running sums sum_i v_i c_i of Fractions v_i (rational strings)
    times integers c_i of at most ``term_bits`` bits, added in order (docs/soundness.md,
    "Cost model"): after i terms the running sum lives over the common denominator of
    v_1..v_i, so its height is the largest numerator plus the bits of every distinct
    denominator so far plus term_bits + log2 i (not one string's height: that undercount
    let a 976 KB file estimated at 6.5 s run past 60 s).  Adding a small term to it costs
    CPython's Fraction addition: a gcd and three products of a small by a big number,
    each ``mul2(small, running)``, with a margin (measured: the estimate stays 2-10x over)."""
    texts = [x if isinstance(x, str) else "" for x in values]
    num = max((digits_bits(len(t.partition("/")[0])) for t in texts), default=1)
    seen: set[str] = set()
    running, total = 0, 0
    for i, text in enumerate(texts, 1):
        den = text.partition("/")[2]
        if den and den not in seen:
            seen.add(den)
            running += digits_bits(len(den))
        height = num + running + term_bits + i.bit_length()
        small = rational_bits(text) + term_bits
        total += width * (6 * mul2(small, height) + 30)
    return total


def work(doc: Node, limits: Limits) -> int:
    """An upper bound on the operations, from the sizes alone: per multiplier n (k + 2)
    binomials of reach bits; the k + 1 running Motzkin sums (MN1) at the height of the
    multipliers' common denominator so far (``accumulation_units``); per witness
    (reach + 2)^2 sums of k + 1 terms over the witness's common denominator (MN2); the
    dynamic program max_m^3 integer steps."""
    v: dict[str, Any] = doc.value if isinstance(doc.value, dict) else {}
    n = v["n"] if isinstance(v.get("n"), int) and not isinstance(v.get("n"), bool) else 2
    n = max(2, min(n, limits.max_n))
    claims: dict[str, Any] = v["claims"] if isinstance(v.get("claims"), dict) else {}
    max_m = claims["max_m"] if isinstance(claims.get("max_m"), int) and not isinstance(claims.get("max_m"), bool) else 1
    max_m = max(1, min(max_m, MAX_M))
    prefixes: list[Any] = v["prefixes"] if isinstance(v.get("prefixes"), list) else []
    total = max_m**3 * op(64) + 1
    for k, entry in enumerate(prefixes):
        if not isinstance(entry, dict):
            continue
        r = entry.get("reach")
        reach = min(r, MAX_M) if isinstance(r, int) and not isinstance(r, bool) and r >= 0 else MAX_M
        coef = reach + 2 + (n * (reach + 2)).bit_length()  # |row entries| <= n (reach + 2) 2^(reach + 1)
        mults: list[Any] = entry["refutation"] if isinstance(entry.get("refutation"), list) else []
        total += len(mults) * (k + 1) * n * (reach + 2) * op(reach)
        total += accumulation_units([x.get("y") if isinstance(x, dict) else None for x in mults], coef, k + 1)
        wit = entry.get("witness")
        if isinstance(wit, list):
            per_sum = accumulation_units(wit[: k + 1], coef, 1)  # one H(d) or class row: k + 1 terms
            total += (reach + 2) ** 2 * ((k + 1) * n * op(reach) + per_sum + frac(64))
    return total
