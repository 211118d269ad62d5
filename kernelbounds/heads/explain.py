"""Why a head fails every-input evaluation: THEORY §3 L1 (gap domination) at its worst input
and at other (query, key, key) triples.

L1: for a query q and keys a, b at levels s < s' (gap d = s' - s >= 2), with K0 = K(q, q) and
D(z) = K0 + (n-1) K(q, z) (the denominator of (q, z, ..., z)), a head with error < 1/2 at q
on S_A = (q, a^(n-1)), S_B = (q, b^(n-1)) and S_M = (q, a, b^(n-2)) has
D(a) > (n-2)(d-1) D(b).  Where the inequality fails, the head fails one of the three inputs;
the explanation names them and which ones fail (exact outputs).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..bits import to_str
from ..lowerbounds.domination import dominates, factor
from ..model import min_ip_target
from ..shown import approx

SEARCH_BLOCK = 256


def l1_explanation(head, h, result, limit: int = 3) -> list[str]:
    """Up to `limit` L1 violations: first the worst input's pair of keys, then the first
    (by query token) other pairs; each states the three inputs and which of them fail.
    h: the head's float arrays over all 2^m tokens (heads.floatpass.HeadArrays)."""
    m, n = result.m, result.n
    if n < 3:
        return []
    out: list[str] = []
    worst = result.worst_input
    if worst is not None and len(set(worst.input[1:])) == 2:
        q, others = worst.input[0], worst.input[1:]
        a = min(set(others), key=lambda z: ((q & z).bit_count(), others.count(z)))
        b = next(z for z in others if z != a)
        line = pair_violation(head, m, n, q, a, b)
        if line:
            out.append(line)
    for q, a, b in candidates(h, m, n):
        if len(out) >= limit:
            break
        line = pair_violation(head, m, n, q, a, b)
        if line and line not in out:
            out.append(line)
    return out


def pair_violation(head, m: int, n: int, q: int, a: int, b: int) -> str | None:
    """The L1 statement at (q, a, b) if D(a) > (n-2)(d-1) D(b) fails (exact), else None."""
    s, s2 = (q & a).bit_count(), (q & b).bit_count()
    d = s2 - s
    if d < 2:
        return None
    kh = head.kernel_head()
    k0 = kh.weight(q, 0, q, 0)
    d_a, d_b = k0 + (n - 1) * kh.weight(q, 0, a, 1), k0 + (n - 1) * kh.weight(q, 0, b, 1)
    if dominates(n, d, d_a, d_b):
        return None
    inputs = {"S_A": (q,) + (a,) * (n - 1), "S_B": (q,) + (b,) * (n - 1), "S_M": (q, a) + (b,) * (n - 2)}
    failing = []
    for name, inp in inputs.items():
        y = kh.output(inp, 0)
        if y is None:
            failing.append(f"{name} (denominator <= 0)")
        elif abs(y - min_ip_target(inp, 0)) >= Fraction(1, 2):
            failing.append(f"{name} (error {approx(abs(y - min_ip_target(inp, 0)), 4)})")
    return (
        f"L1 at query {to_str(q, m)}: keys a = {to_str(a, m)} (level {s}), b = {to_str(b, m)} (level {s2}): "
        f"D(a) = {approx(d_a)} is not > (n-2)(d-1) D(b) = {factor(n, d)} * {approx(d_b)}, so the head fails one of "
        f"S_A = (q, a^{n - 1}), S_B = (q, b^{n - 1}), S_M = (q, a, b^{n - 2}); it fails {', '.join(failing) or 'none (report this)'}"
    )


def candidates(h, m: int, n: int):
    """(q, a, b) in query order where floats suggest L1 fails: a the key of least D at its
    level s, b the key of largest D at a level s' >= s + 2 (confirmed exactly by the caller)."""
    T = 1 << m
    for start in range(0, T, SEARCH_BLOCK):
        qs = np.arange(start, min(T, start + SEARCH_BLOCK))
        K = h.phi_q[qs] @ h.phi_k.T
        levels = h.bits[qs] @ h.bits.T
        for row, q in enumerate(qs.tolist()):
            D = K[row, q] + (n - 1) * K[row]
            lv = levels[row]
            lows, highs = {}, {}
            for s in range(q.bit_count() + 1):
                at = np.flatnonzero(lv == s)
                lows[s] = int(at[np.argmin(D[at])])
                highs[s] = int(at[np.argmax(D[at])])
            for s in lows:
                for s2 in range(s + 2, q.bit_count() + 1):
                    if D[lows[s]] <= (1 + 1e-9) * factor(n, s2 - s) * D[highs[s2]]:
                        yield q, lows[s], highs[s2]
