"""Multi-block level families (THEORY U8): the m coordinates split into blocks, the kernel a
sum of products of per-block binomials, checked on every class pair by the extremes of H per
total (kind ``multi-block-level-family``).  The committed files replay the stored answers
(``kernelbounds/data/multiblock-answers.json``, ``upperbounds.multiblock``), one per
(m, n, signs) where they beat every other upper side."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "multi-blocks", "multi-block-level-family", "upper"
THEORY, METHOD = "U8", "multi-block level family"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated


def _family(m: int, n: int, nonnegative: bool) -> Entry:
    from ..upperbounds import multiblock

    return Entry(multiblock.filename(m, n, nonnegative), lambda: multiblock.certificate(m, n, nonnegative), cell=(m, n, "position-independent", "nonnegative"))


def entries() -> list[Entry]:
    from ..upperbounds import multiblock

    return [_family(m, n, nonnegative) for m, n, nonnegative in multiblock.cells()]


covers, build = files_cover(entries)
