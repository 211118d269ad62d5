"""Work limits and the work-estimate cost model, checked before any work starts (exit 3).

Cost model (docs/soundness.md, "Work estimate"): one **unit** is about 100 ns of one
core on the reference machine (10^7 units per second, measured with CPython 3.11); the
default ``work_budget`` of 6 * 10^8 units is about 60 s.  An operation on numbers of
``bits`` bits costs
  op(bits)   an add, compare, xor or popcount: 1 + bits/2048;
  mul(bits)  an integer product (or a power step, a % p): 1 + w^2/40, w = bits/64 words;
  frac(bits) a Fraction +, *, / or compare (products and a gcd): 12 + 2 w^1.5 + w^2/12;
calibrated by timing each at 64 .. 256,000 bits (the formulas over-estimate by at most
about 3x at the large sizes, never under-estimate by more than the timing noise).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any
from math import comb, isqrt

from .errors import LimitExceeded


MAX_TIME_LIMIT = 10**6  # runtime guard: at most about 11.6 days of CPU time (0 = off)
MAX_MEMORY_LIMIT = 2**50  # runtime guard: at most 1 PiB of added address space (0 = off)
DIGITS = re.compile(r"-?[0-9]+")  # an override's value: ASCII decimal digits
MAX_LIMIT = 2**62  # any other limit: a whole number in 0..2^62 (it must fit a C ssize_t, e.g. read(max_file_bytes + 1))


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 64 * 2**20
    max_m: int = 4096
    max_n: int = 64
    max_level_classes: int = 150_000_000  # C(70, 6) = 131,115,985: U2 at m = 64, n = 6 (~25 s)
    exhaustive_inputs: int = 2**20  # run the exhaustive route up to this many (query, multiset) pairs
    rank_m: int = 10  # construction rule: FLINT rank of the 2^m x 2^m kernel matrix up to this m
    rank_cert_m: int = 12  # rank rule: largest m for a 2^m x 2^m minor
    max_list: int = 1_000_000
    max_code_words: int = 20_000
    max_pairs: int = 40_000_000
    max_transcript_work: int = 50_000_000
    max_linear_dim: int = 22  # linear-code certificates enumerate 2^k codewords
    max_feature_work: int = 50_000_000  # rank certificates of feature kernels: tokens^2 x dimension
    work_budget: int = 600_000_000  # the work estimate's budget in units (about 60 s)
    max_orbit_work: int = 120_000_000  # lower bounds in the orbit form (rules/orbits.work_orbits)
    max_orbit_words: int = 4_000_000  # code words held in memory by the orbit form
    max_parse_bytes: int = 1_200_000_000  # memory estimate for parsing the JSON text (json_memory)
    time_limit: int = 60  # runtime guard (checker/guard.py): CPU seconds of the check; 0 = off
    memory_limit: int = 2 * 2**30  # runtime guard: bytes of memory the check may add; 0 = off

    def __post_init__(self) -> None:
        """Every field is a whole number (an int, not a bool) in its range, checked at
        construction (and by with_overrides): ValueError with one line naming the field."""
        problem = self.problem()
        if problem:
            raise ValueError(problem)

    def problem(self) -> str | None:
        """Why these limits are unusable (one line), or None: each field a whole number in
        0..MAX_LIMIT; ``time_limit`` and ``memory_limit`` within 0..MAX_TIME_LIMIT seconds and
        0..MAX_MEMORY_LIMIT bytes (beyond them the wall-clock backstop overflows ``select``
        and the address-space limit overflows ``setrlimit``)."""
        guard = {"time_limit": (MAX_TIME_LIMIT, " s", " (--time-limit; 0 switches that limit off)"), "memory_limit": (MAX_MEMORY_LIMIT, " bytes", " (--memory-limit; 0 switches that limit off)")}
        for f in fields(self):
            name, value = f.name, getattr(self, f.name)
            top, unit, option = guard.get(name, (MAX_LIMIT, "", ""))
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{name} must be a whole number{option}, not {type(value).__name__} {str(value)[:40]!r}"
            if not 0 <= value <= top:
                shown = str(value) if len(str(value)) <= 40 else f"a {len(str(value))}-digit number"
                return f"{name} = {shown}{unit} is outside 0..{top}{unit}{option}"
        return None

    def guard_problem(self) -> str | None:
        """problem() (kept for the front ends: a Limits built around __post_init__, e.g. by
        object.__setattr__, is still refused before anything runs)."""
        return self.problem()

    def with_overrides(self, **kw: Any) -> Limits:
        known = {f.name for f in fields(self)}
        bad = sorted(set(kw) - known)
        if bad:
            raise ValueError(f"unknown limit {bad[0]!r}")
        return replace(self, **kw)


def exhaustive_inputs(m: int, n: int) -> int:
    """Number of (query, multiset of n-1 other tokens) pairs over {0,1}^m."""
    tokens = 2**m
    return tokens * comb(tokens + n - 2, n - 1)


def require(ok: bool, pointer: str, what: str, amount: int, limit: int) -> None:
    if not ok:
        raise LimitExceeded(pointer, f"{what} would be {amount}, over the limit {limit}")


# ----------------------------------------------------------------- the cost model

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
def parse_overrides(items: list[str], base: Limits | None = None) -> Limits:
    """base (default Limits()) with NAME=INTEGER overrides; ValueError names the bad item."""
    overrides = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not (sep and DIGITS.fullmatch(value)):  # ASCII digits only: int() would also take '1_0', '٦', '６'
            raise ValueError(f"expected NAME=INTEGER (ASCII digits), got {item[:60]!r}")
        overrides[name] = int(value)
        if overrides[name] < 0:
            raise ValueError(f"{name} must be >= 0")
    return (base or Limits()).with_overrides(**overrides)


def lin(bits: int = 64) -> int:
    """A big number times (or plus, or modulo) a word-size one: linear in its words."""
    return 1 + words(bits) // 16


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
