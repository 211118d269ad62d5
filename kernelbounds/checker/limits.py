"""Work limits, checked before any work starts (exit code 3 beyond them)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from math import comb

from .errors import LimitExceeded


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

    def with_overrides(self, **kw) -> Limits:
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


def parse_overrides(items: list[str], base: Limits | None = None) -> Limits:
    """base (default Limits()) with NAME=INTEGER overrides; ValueError names the bad item."""
    overrides = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            overrides[name] = int(value)
        except ValueError:
            sep = ""
        if not sep:
            raise ValueError(f"expected NAME=INTEGER, got {item!r}")
    return (base or Limits()).with_overrides(**overrides)
