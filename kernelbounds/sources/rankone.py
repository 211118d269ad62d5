"""Rank one fails from m = 4 (THEORY U5): a Farkas certificate that no rank-one head solves
every input (kind ``rank-one-infeasible``, ``lowerbounds.rankonefarkas``), n = 3..8."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "rank-one", "rank-one-infeasible", "lower"
THEORY, METHOD = "U5", "rank-one Farkas"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated

NS = range(3, 9)
FAILS_M = 4  # the least m where rank one fails, for every n in NS


def _file(m: int, n: int) -> Entry:
    from ..lowerbounds import rankonefarkas

    return Entry(f"rank-one-infeasible-m{m:02d}-n{n}.json", lambda: rankonefarkas.certificate(rankonefarkas.farkas(m, n)), cell=(m, n, "position-independent", "nonnegative"))


def entries() -> list[Entry]:
    return [_file(FAILS_M, n) for n in NS]


covers, build = files_cover(entries)
