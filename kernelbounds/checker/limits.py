"""Work limits, checked before any work starts (exit 3): the reading limits, the sizes
each rule accepts, the work budget and the runtime guard's budgets (the cost model of the
work estimates is cost.py)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any
from math import comb

from .errors import LimitExceeded


MAX_TIME_LIMIT = 10**6  # runtime guard: at most about 11.6 days of CPU time (0 = off)
MAX_MEMORY_LIMIT = 2**50  # runtime guard: at most 1 PiB of added address space (0 = off)
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
    max_orbit_work: int = 120_000_000  # lower bounds in the orbit form (rules/orbits_work.work_orbits)
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
