"""The committed certificate set (certificates/): one entry per file, naming the
generator call that rebuilds it deterministically.  The regenerate-check-compare workflow
over this registry is :mod:`kernelbounds.release.workflow`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import re

from ..upperbounds import constructions
from ..upperbounds.levelfamily import verdicts as lf_verdicts
from ..lowerbounds import assemble as lowerbound
from ..lowerbounds import certify
from .. import kernelrank as rank
from ..lowerbounds import transcript


@dataclass(frozen=True)
class Entry:
    filename: str
    build: Callable[[], dict]
    companions: tuple[Entry, ...] = ()  # entries written beside it when it is checked (a base it names by sha256)


def _construction(name: str, m: int, n: int) -> Entry:
    return Entry(f"construction-{name}-m{m:02d}-n{n}.json", lambda: constructions.certificate(constructions.CONSTRUCTIONS[name](m, n)))


def _lower(m: int, n: int, variant: str = "position-independent") -> Entry:
    return Entry(f"lower-{variant}-m{m:02d}-n{n}.json", lambda: lowerbound.any_certificate(lowerbound.best(m, n, variant)))


def _witness(m: int, n: int, target: int) -> Entry:
    return Entry(f"witness-m{m:02d}-n{n}-r{target}.json", lambda: certify.certificate(lowerbound.smallest_witness(m, n, target), listed=True))


def _rank(name: str, m: int) -> Entry:
    return Entry(f"rank-{name}-m{m:02d}.json", lambda: rank.certificate(rank.named_kernel(name, m), m, name))


def _upper(m: int, n: int, nonnegative: bool) -> Entry:
    """The least rank over the U4 level families (any signs, or nonnegative features)."""
    return Entry(lf_verdicts.filename(m, n, nonnegative), lambda: lf_verdicts.least_certificate(m, n, nonnegative))


def _minimality(n: int, nonnegative: bool) -> Entry:
    """THEORY U4' "Minimality": the chain bound of the complement-basis affine family, every m <= 64."""
    from ..upperbounds import minimality

    return Entry(minimality.filename(n, nonnegative), lambda: minimality.certificate(n, nonnegative))


UPPER = [(m, 3) for m in range(4, 21)] + [(m, n) for n in (4, 5) for m in range(4, 13)]


def _upper_at_scale(m: int, n: int, nonnegative: bool) -> Entry:
    """Upper bounds at scale (THEORY U4'): the explicit chain (g >= 0) or the stored prefix-search answer
    (any g), replayed through the exact extreme-class check (upperbounds/replay.py)."""
    from ..upperbounds import replay

    return Entry(lf_verdicts.filename(m, n, nonnegative), lambda: replay.certificate(m, n, nonnegative))


def _upper_above_64(m: int, n: int, nonnegative: bool) -> Entry:
    """Upper bounds above m = 64 (THEORY U4'): the explicit chain (g >= 0) or the stored answer of
    an LP prefix extended by the explicit rule (any g), replayed exactly (upperbounds/extension.py)."""
    from ..upperbounds import extension

    return Entry(lf_verdicts.filename(m, n, nonnegative), lambda: extension.certificate(m, n, nonnegative))


def _rank_one_head(m: int, n: int) -> Entry:
    from ..upperbounds import generalheads, rankone

    return Entry(f"explicit-rank1-m{m:02d}-n{n}.json", lambda: generalheads.certificate(rankone.rank_one_head(m, n)))


def _rank_one_farkas(m: int, n: int) -> Entry:
    from ..lowerbounds import rankonefarkas

    return Entry(f"rank-one-infeasible-m{m:02d}-n{n}.json", lambda: rankonefarkas.certificate(rankonefarkas.farkas(m, n)))


def _general_head(m: int, n: int, r: int, path) -> Entry:
    import json

    from ..upperbounds import generalheads

    return Entry(f"explicit-head-m{m:02d}-n{n}-r{r}.json", lambda: generalheads.certificate(generalheads.from_tables(json.loads(path.read_text()))))


HEADS_DIR = Path(__file__).parents[1] / "data" / "heads"  # explicit heads found by the U5 search, as tables
RANK_ONE_NS = range(3, 9)
RANK_ONE_MAX_M = 3  # rank-one heads certified for m = 1..3
RANK_ONE_FAILS_M = 4  # the least m where rank one fails (Farkas), for every n in RANK_ONE_NS


def general_heads() -> list[tuple[int, int, int, Path]]:
    """(m, n, rank, path) of every stored general head (data/heads/mMM-nN-rR.json), sorted."""
    out = []
    for path in HEADS_DIR.glob("m*-n*-r*.json"):
        found = re.fullmatch(r"m(\d+)-n(\d+)-r(\d+)\.json", path.name)
        if found:
            m, n, r = map(int, found.groups())
            out.append((m, n, r, path))
    return sorted(out)


def _exact_small() -> list[Entry]:
    """THEORY U5: r* = 1 for m <= 3, >= 2 from m = 4 (n = 3..8), and general heads."""
    out = [_rank_one_head(m, n) for n in RANK_ONE_NS for m in range(1, RANK_ONE_MAX_M + 1)]
    out += [_rank_one_farkas(RANK_ONE_FAILS_M, n) for n in RANK_ONE_NS]
    return out + [_general_head(*h) for h in general_heads()]


def _orthant(m: int, n: int, variant: str = "position-independent") -> Entry:
    """THEORY L7: r >= floor(m/2) (kind orthant, rule disjoint-pairs)."""
    from ..lowerbounds import signrank

    return Entry(f"orthant-{variant}-m{m:02d}-n{n}.json", lambda: signrank.orthant(m, n, variant).certificate())


def _crossing(m: int, n: int, variant: str = "position-independent") -> Entry:
    """THEORY U6: rank 2 refuted by single crossing (kind crossing), r >= 3."""
    from ..lowerbounds import crossing

    return Entry(f"crossing-{variant}-m{m:02d}-n{n}.json", lambda: crossing.refute(m, n, variant).certificate())


def _sign_rank() -> list[Entry]:
    """Sign-rank bounds: L7 at m = 5..16 (n = 3; position-dependent and causal at a few m) and U6 at m = 5."""
    out = [_orthant(m, 3) for m in range(5, 17)]
    out += [_orthant(m, 3, "position-dependent") for m in (8, 10, 12)] + [_orthant(12, 3, "causal")]
    out += [_crossing(5, n) for n in range(3, 9)]
    out += [_crossing(5, n, v) for n in (3, 4) for v in ("position-dependent", "causal")]
    return out


# ----------------------------------------------------------------- ADDED: signed kernels
# THEORY L8: the same codes and chains as the nonnegative files, the bound stated as
# r >= L3 - 1 (the D-ratio matrix has rank <= r + 1).  A signed-any-denominator file's claim
# covers all three kernel classes, so a signed file is added only where it is the only one
# (position-dependent) or asked for (m = 64 and 24, n = 3).


def _lower_kernel(m: int, n: int, kernel: str, variant: str = "position-independent") -> Entry:
    return Entry(f"lower-{kernel}-{variant}-m{m:02d}-n{n}.json", lambda: lowerbound.best(m, n, variant, kernel=kernel).certificate())


def _witness_kernel(m: int, n: int, target: int, kernel: str) -> Entry:
    return Entry(f"witness-{kernel}-m{m:02d}-n{n}-r{target}.json", lambda: certify.certificate(lowerbound.smallest_witness(m, n, target, kernel=kernel), listed=True))


def _signed() -> list[Entry]:
    any_den = "signed-any-denominator"
    out = [_lower_kernel(64, 3, "signed"), _lower_kernel(64, 3, any_den), _lower_kernel(64, 3, any_den, "causal")]
    out += [_lower_kernel(24, 3, "signed"), _lower_kernel(24, 3, "signed", "position-dependent"), _lower_kernel(24, 3, any_den), _lower_kernel(24, 3, any_den, "causal")]
    out += [_lower_kernel(24, n, any_den) for n in range(4, 9)]
    out += [_lower_kernel(m, 3, any_den) for m in (32, 48)] + [_lower_kernel(64, n, any_den) for n in range(4, 9)]
    out.append(_witness_kernel(24, 3, 7, "signed"))  # the Paley family of witness-m24-n3-r8.json, r >= 8 - 1
    return out


# ----------------------------------------------------------------- end of ADDED: signed kernels


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
    # lower bounds at scale: the rest of m = 24, and m = 32, 48, 64 for n = 3..8
    out += [_lower(24, n) for n in (6, 7, 8)]
    out += [_lower(m, n) for m in (32, 48) for n in range(3, 9)] + [_lower(64, n) for n in range(4, 8)]
    out += [_upper(m, n, nonneg) for m, n in UPPER for nonneg in (False, True)]
    out += [_minimality(n, nonneg) for n in range(3, 9) for nonneg in (True, False)]
    out += _exact_small()
    out += _sign_rank()
    out += [_construction("tensor", 64, n) for n in (5, 6)]  # n = 6: 131M classes, ~25 s of CPU (the checker's work estimate: 39 s)
    from ..upperbounds.replay import CELLS

    out += [_upper_at_scale(m, n, nonneg) for m, n in CELLS for nonneg in (False, True)]  # upper bounds at scale (THEORY U4')
    from ..upperbounds import extension

    # above m = 64: the chain at every grid cell, the signed answer where it beats the chain
    out += [_upper_above_64(m, n, True) for m, n in extension.CELLS] + [_upper_above_64(m, n, False) for m, n in extension.signed_cells()]
    out += _rank_refutations()
    out += _signed()  # ADDED: signed kernels (THEORY L8)
    out += _symmetric_heads()
    out += _direct_sums()  # THEORY L9
    return out


def _direct_sums() -> list[Entry]:
    """THEORY L9: the best direct sum of codes per length and n (lowerbounds.directsum.committed_cells)."""
    from ..lowerbounds import directsum

    return [Entry(directsum.filename(m, n, v, k), lambda m=m, n=n, v=v, k=k: directsum.best(m, n, v, k).certificate()) for m, n, v, k in directsum.committed_cells()]


# ----------------------------------------------------------------- rank refutations (THEORY U7)
# Clausal proofs replayed from kernelbounds/data/refutations.json (lowerbounds/refutation.py):
# r = 2 at m = 5 (signed kernels too) and r = 3 at m = 6, so r*(6, n) >= 4.
REFUTATION_CELLS = [(m, r, n, v) for m, r in ((5, 2), (6, 3)) for v in ("position-independent", "position-dependent", "causal") for n in range(3, 9)]
REFUTATION_CELLS += [(8, 4, 3, v) for v in ("position-independent", "position-dependent", "causal")]  # direct: the prism plus edge 67


def _rank_refutation(m: int, r: int, n: int, variant: str) -> Entry:
    from ..lowerbounds import refutation

    return Entry(refutation.filename(m, n, r, variant), lambda: refutation.refute(m, n, r, variant).certificate())


def _rank_refutations() -> list[Entry]:
    return [_rank_refutation(*cell) for cell in REFUTATION_CELLS] + _rank_extensions()


def _rank_extensions() -> list[Entry]:
    """THEORY U7+: the m = 6 refutation plus disjoint edges (lowerbounds/rankextension.py: CELLS)."""
    from ..lowerbounds import rankextension

    out = []
    for m, n, variant in rankextension.CELLS:
        base = _rank_refutation(6, 3, n, variant)
        base = Entry(base.filename, rankextension.once(base.filename, base.build))
        out.append(Entry(*rankextension.entry(m, n, variant, base.filename, base.build), companions=(base,)))
    return out



# ------------------------------------------------------------------------------------------
# Heads of the symmetry ansatz (THEORY U5, "Symmetry ansatz"): stored as generator data in
# data/heads/symmetric/mMM-nN-rR.json (pi, t and the integer tables of g, h, phi, F per orbit),
# expanded by upperbounds/symmetric.py into ordinary explicit-head certificates.

def _symmetric_heads() -> list[Entry]:
    from ..upperbounds import symmetric

    return [Entry(f"explicit-head-m{m:02d}-n{n}-r{r}.json", lambda path=path: symmetric.certificate_from_file(path)) for m, n, r, path in symmetric.stored()]
