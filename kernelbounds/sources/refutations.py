"""Rank refutations (THEORY U7): the chirotope of a head of rank <= r, encoded as clauses,
refuted by a clausal proof replayed from kernelbounds/data/refutations.json
(``lowerbounds.refutation``): r = 2 at m = 5 (signed kernels too) and r = 3 at m = 6, so
r*(6, n) >= 4; r = 4 at m = 8, n = 3 directly (the prism plus edge 67)."""

from __future__ import annotations

from ..vocabulary import VARIANTS
from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "refutations", "rank-refutation", "lower"
THEORY, METHOD = "U7", "rank refutation (chirotope, clausal proof)"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated


CELLS = [(m, r, n, v) for m, r in ((5, 2), (6, 3)) for v in VARIANTS for n in range(3, 9)]
CELLS += [(8, 4, 3, v) for v in VARIANTS]


def entry(m: int, r: int, n: int, variant: str) -> Entry:
    """The refutation of rank r at (m, n, variant) (a base of the extensions, too)."""
    from ..lowerbounds import refutation

    return Entry(refutation.filename(m, n, r, variant), lambda: refutation.refute(m, n, r, variant).certificate(), cell=(m, n, variant, "signed"))


def entries() -> list[Entry]:
    return [entry(*cell) for cell in CELLS]


covers, build = files_cover(entries)
