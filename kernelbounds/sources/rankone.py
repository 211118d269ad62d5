"""Rank one fails from m = 4 (THEORY U5): a Farkas certificate that no rank-one head solves
every input (kind ``rank-one-infeasible``, ``lowerbounds.rankonefarkas``), n = 3..8."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME = "rank-one"
KIND = "rank-one-infeasible"
THEORY = "U5"
METHOD = "rank-one Farkas"
SIDE = "lower"
STORED = ""
COMPUTED = False
NS = range(3, 9)
FAILS_M = 4  # the least m where rank one fails, for every n in NS

label = plain_label(METHOD, THEORY)
describe = no_description
row = no_row
statements = none_stated


def _file(m: int, n: int) -> Entry:
    from ..lowerbounds import rankonefarkas

    return Entry(f"rank-one-infeasible-m{m:02d}-n{n}.json", lambda: rankonefarkas.certificate(rankonefarkas.farkas(m, n)), cell=(m, n, "position-independent", "nonnegative"))


def entries() -> list[Entry]:
    return [_file(FAILS_M, n) for n in NS]


covers, build = files_cover(entries)
