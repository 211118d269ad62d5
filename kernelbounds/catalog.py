"""The committed certificate set (certificates/), regenerated deterministically."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import constructions, exact, lowerbound, rank, transcript, upperbound


@dataclass(frozen=True)
class Entry:
    filename: str
    build: Callable[[], dict]


def _construction(name: str, m: int, n: int) -> Entry:
    return Entry(f"construction-{name}-m{m:02d}-n{n}.json", lambda: constructions.certificate(constructions.CONSTRUCTIONS[name](m, n)))


def _lower(m: int, n: int, variant: str = "position-independent") -> Entry:
    return Entry(f"lower-{variant}-m{m:02d}-n{n}.json", lambda: lowerbound.any_certificate(lowerbound.best(m, n, variant)))


def _witness(m: int, n: int, target: int) -> Entry:
    return Entry(f"witness-m{m:02d}-n{n}-r{target}.json", lambda: lowerbound.certificate(lowerbound.smallest_witness(m, n, target), listed=True))


def _rank(name: str, m: int) -> Entry:
    return Entry(f"rank-{name}-m{m:02d}.json", lambda: rank.certificate(rank.named_kernel(name, m), m, name))


def _upper(m: int, n: int, nonnegative: bool) -> Entry:
    """The least rank over the U4 level families (any signs, or nonnegative features)."""
    return Entry(upperbound.family_filename(m, n, nonnegative), lambda: upperbound.family_certificate(m, n, nonnegative))


UPPER = [(m, 3) for m in range(4, 21)] + [(m, n) for n in (4, 5) for m in range(4, 13)]


def _rank_one_head(m: int, n: int) -> Entry:
    from . import farkas, generalheads

    return Entry(f"explicit-rank1-m{m:02d}-n{n}.json", lambda: generalheads.certificate(farkas.rank_one_head(m, n)))


def _rank_one_farkas(m: int, n: int) -> Entry:
    from . import farkas

    return Entry(f"rank-one-infeasible-m{m:02d}-n{n}.json", lambda: farkas.certificate(farkas.farkas(m, n)))


def _general_head(m: int, n: int, r: int, path) -> Entry:
    import json

    from . import generalheads

    return Entry(f"explicit-head-m{m:02d}-n{n}-r{r}.json", lambda: generalheads.certificate(generalheads.from_tables(json.loads(path.read_text()))))


def _exact_small() -> list[Entry]:
    """THEORY U5: r* = 1 for m <= 3, >= 2 from m = 4 (n = 3..8), and general heads."""
    out = [_rank_one_head(m, n) for n in exact.RANK_ONE_NS for m in range(1, exact.RANK_ONE_MAX_M + 1)]
    out += [_rank_one_farkas(exact.RANK_ONE_FAILS_M, n) for n in exact.RANK_ONE_NS]
    return out + [_general_head(*h) for h in exact.general_heads()]


def entries() -> list[Entry]:
    out = [_construction("rank1", m, 2) for m in range(1, 17)]
    for name in ("tensor", "softmax"):
        out += [_construction(name, m, n) for n in (3, 4) for m in range(1, 17)]
    out += [_lower(24, n) for n in (3, 4, 5)]
    out.append(_witness(24, 3, 8))
    out += [_rank(name, 8) for name in ("tensor", "softmax", "inner", "disjoint")]
    out.append(_rank("tensor", 12))
    out += [_lower(24, 3, variant) for variant in ("position-dependent", "causal")]
    out += [Entry(f"transcript-q{q}-s{s}.json", lambda q=q, s=s: transcript.certificate(q, s)) for q, s in ((3, 4), (8, 1))]
    out += [_lower(64, n) for n in (3, 8)]
    # lower bounds at scale (issue 13): the rest of m = 24, and m = 32, 48, 64 for n = 3..8
    out += [_lower(24, n) for n in (6, 7, 8)]
    out += [_lower(m, n) for m in (32, 48) for n in range(3, 9)] + [_lower(64, n) for n in range(4, 8)]
    out += [_upper(m, n, nonneg) for m, n in UPPER for nonneg in (False, True)]
    out += _exact_small()
    return out
