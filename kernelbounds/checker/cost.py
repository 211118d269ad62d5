"""The work estimates' cost model (docs/soundness.md, "Work estimate"): one **unit** is
about 100 ns of one core on the reference machine (10^7 units per second, measured with
CPython 3.11); the default ``work_budget`` of 6 * 10^8 units is about 60 s.  An operation on
numbers of ``bits`` bits costs
  op(bits)   an add, compare, xor or popcount: 1 + bits/2048;
  mul(bits)  an integer product (or a power step, a % p): 1 + w^2/40, w = bits/64 words;
  frac(bits) a Fraction +, *, / or compare (products and a gcd): 12 + 2 w^1.5 + w^2/12;
calibrated by timing each at 64 .. 256,000 bits (the formulas over-estimate by at most
about 3x at the large sizes, never under-estimate by more than the timing noise).
"""

from __future__ import annotations

from math import isqrt

from .limits import Limits


def words(bits: int) -> int:
    return max(bits, 0) // 64 + 1


def op(bits: int = 64) -> int:
    """An add, compare, xor or popcount of numbers of `bits` bits."""
    return 1 + max(bits, 0) // 2048


def mul(bits: int = 64) -> int:
    """An integer product (or one step of a power, a remainder) of `bits`-bit numbers."""
    w = words(bits)
    return 1 + w * w // 40


def frac(bits: int = 64) -> int:
    """A Fraction operation (cross products and a gcd) on rationals of height `bits`."""
    w = words(bits)
    return 12 + 2 * w * isqrt(w) + w * w // 12


def rational_bits(text: object) -> int:
    """An upper bound on the height (bits of numerator + denominator) of a rational
    string "p/q", from its length alone (log2 10 < 10/3)."""
    return len(text) * 10 // 3 + 2 if isinstance(text, str) else 64


def budget_left(limits: Limits, used: int) -> int:
    return limits.work_budget - used


def lin(bits: int = 64) -> int:
    """A big number times (or plus, or modulo) a word-size one: linear in its words."""
    return 1 + words(bits) // 16


def div(a_bits: int, b_bits: int) -> int:
    """An a-bit number divided by (or reduced modulo, or a gcd with) a b-bit one, b <= a:
    CPython's schoolbook division, about wa (wb + 1) / 6 units (timed at 5,000 .. 425,000 by
    64 .. 13,300 bits: 22-106,000 units)."""
    return 2 + words(a_bits) * (words(b_bits) + 1) // 6


def mul2(a_bits: int, b_bits: int) -> int:
    """A product of an a-bit and a b-bit number, CPython's Karatsuba: about
    0.4 * wa^log2(3) * wb / wa units for wa <= wb words (timed at 64 .. 100,000 bits:
    1024-bit 3 us, 5200-bit 39 us, 21,000-bit 0.38 ms, 100,000-bit 4.5 ms per product),
    with wa^log2(3) bounded by 3^L for L = bits of wa (integers only)."""
    wa, wb = sorted((words(a_bits), words(b_bits)))
    if wa == 1:
        return lin(max(a_bits, b_bits))
    level = wa.bit_length()
    return 2 + 4 * wb * 3**level // (10 * 2**level)
