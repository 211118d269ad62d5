"""Explicit heads (THEORY U5): a head given by its integer tables, checked on every input
(kind ``explicit-head``): rank-one heads for m = 1..3 (n = 3..8), the heads found by the
searches (data/heads/mMM-nN-rR.json), the heads of the symmetry ansatz
(data/heads/symmetric/, expanded by ``upperbounds.symmetric``) and the heads of the L1
relaxation (data/heads/l1/: integer phi, psi and the readout numerators over fden, written
out by ``upperbounds.l1relaxation``)."""

from __future__ import annotations

from pathlib import Path

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "explicit-heads", "explicit-head", "upper"
THEORY, METHOD = "U5", "explicit head"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated

HEADS_DIR = Path(__file__).parents[1] / "data" / "heads"  # explicit heads found by the U5 search, as tables
RANK_ONE_NS = range(3, 9)
RANK_ONE_MAX_M = 3  # rank-one heads certified for m = 1..3


def general_heads() -> list[tuple[int, int, int, Path]]:
    """(m, n, rank, path) of every stored general head (data/heads/mMM-nN-rR.json), sorted."""
    from ..upperbounds import generalheads

    return generalheads.stored_in(HEADS_DIR)


def _rank_one(m: int, n: int) -> Entry:
    from ..upperbounds import generalheads, rankone

    return Entry(f"explicit-rank1-m{m:02d}-n{n}.json", lambda: generalheads.certificate(rankone.rank_one_head(m, n)), cell=(m, n, "position-independent", "nonnegative"))


def _head(m: int, n: int, r: int, build) -> Entry:
    """The committed certificate of a stored rank-r head at (m, n), built by ``build()``."""
    return Entry(f"explicit-head-m{m:02d}-n{n}-r{r}.json", build, cell=(m, n, "position-independent", "nonnegative"))


def _general(m: int, n: int, r: int, path: Path) -> Entry:
    import json

    from ..upperbounds import generalheads

    return _head(m, n, r, lambda: generalheads.certificate(generalheads.from_tables(json.loads(path.read_text()))))


def _symmetric() -> list[Entry]:
    from ..upperbounds import symmetric

    return [_head(m, n, r, lambda path=path: symmetric.certificate_from_file(path)) for m, n, r, path in symmetric.stored()]


def _l1() -> list[Entry]:
    from ..upperbounds import l1relaxation

    return [_head(m, n, r, lambda path=path: l1relaxation.certificate_from_file(path)) for m, n, r, path in l1relaxation.stored()]


def entries() -> list[Entry]:
    out = [_rank_one(m, n) for n in RANK_ONE_NS for m in range(1, RANK_ONE_MAX_M + 1)]
    return out + [_general(*h) for h in general_heads()] + _symmetric() + _l1()


covers, build = files_cover(entries)
