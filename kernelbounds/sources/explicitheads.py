"""Explicit heads (THEORY U5): a head given by its integer tables, checked on every input
(kind ``explicit-head``): rank-one heads for m = 1..3 (n = 3..8), the heads found by the
searches (data/heads/mMM-nN-rR.json) and the heads of the symmetry ansatz
(data/heads/symmetric/, expanded by ``upperbounds.symmetric``)."""

from __future__ import annotations

import re
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
    out = []
    for path in HEADS_DIR.glob("m*-n*-r*.json"):
        found = re.fullmatch(r"m(\d+)-n(\d+)-r(\d+)\.json", path.name)
        if found:
            m, n, r = map(int, found.groups())
            out.append((m, n, r, path))
    return sorted(out)


def _rank_one(m: int, n: int) -> Entry:
    from ..upperbounds import generalheads, rankone

    return Entry(f"explicit-rank1-m{m:02d}-n{n}.json", lambda: generalheads.certificate(rankone.rank_one_head(m, n)), cell=(m, n, "position-independent", "nonnegative"))


def _general(m: int, n: int, r: int, path: Path) -> Entry:
    import json

    from ..upperbounds import generalheads

    return Entry(f"explicit-head-m{m:02d}-n{n}-r{r}.json", lambda: generalheads.certificate(generalheads.from_tables(json.loads(path.read_text()))),
                 cell=(m, n, "position-independent", "nonnegative"))


def _symmetric() -> list[Entry]:
    from ..upperbounds import symmetric

    return [Entry(f"explicit-head-m{m:02d}-n{n}-r{r}.json", lambda path=path: symmetric.certificate_from_file(path), cell=(m, n, "position-independent", "nonnegative"))
            for m, n, r, path in symmetric.stored()]


def entries() -> list[Entry]:
    out = [_rank_one(m, n) for n in RANK_ONE_NS for m in range(1, RANK_ONE_MAX_M + 1)]
    return out + [_general(*h) for h in general_heads()] + _symmetric()


covers, build = files_cover(entries)
