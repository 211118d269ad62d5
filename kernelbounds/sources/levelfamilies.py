"""Level families (THEORY U4, U4'): heads whose features are the levels of a support S,
feature rank sum_{j in S} C(m, j), checked on every extreme class (kind ``level-family``):
the least rank over the U4 families at small m, at scale (the explicit chain or the stored
prefix-search answer, ``upperbounds.replay``), above m = 64 (``upperbounds.extension``), and
the minimality files (U4' "Minimality": no cheaper head of the complement-basis affine
family, kind ``level-family-minimality``).  A file at m' > m bounds m by the restricted
support S ∩ [0, m]."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "level-families", "level-family", "upper"
THEORY, METHOD = "U4", "level family"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated

SMALL = [(m, 3) for m in range(4, 21)] + [(m, n) for n in (4, 5) for m in range(4, 13)]


def _cell(m: int, n: int) -> tuple[int, int, str, str]:
    return (m, n, "position-independent", "nonnegative")


def _least(m: int, n: int, nonnegative: bool) -> Entry:
    from ..upperbounds.levelfamily import verdicts

    return Entry(verdicts.filename(m, n, nonnegative), lambda: verdicts.least_certificate(m, n, nonnegative), cell=_cell(m, n))


def _minimality(n: int, nonnegative: bool) -> Entry:
    from ..upperbounds import minimality

    return Entry(minimality.filename(n, nonnegative), lambda: minimality.certificate(n, nonnegative))


def _at_scale(m: int, n: int, nonnegative: bool) -> Entry:
    from ..upperbounds import replay
    from ..upperbounds.levelfamily import verdicts

    return Entry(verdicts.filename(m, n, nonnegative), lambda: replay.certificate(m, n, nonnegative), cell=_cell(m, n))


def _above_64(m: int, n: int, nonnegative: bool) -> Entry:
    from ..upperbounds import extension
    from ..upperbounds.levelfamily import verdicts

    return Entry(verdicts.filename(m, n, nonnegative), lambda: extension.certificate(m, n, nonnegative), cell=_cell(m, n))


def entries() -> list[Entry]:
    from ..upperbounds import extension
    from ..upperbounds.replay import CELLS

    out = [_least(m, n, nonneg) for m, n in SMALL for nonneg in (False, True)]
    out += [_minimality(n, nonneg) for n in range(3, 9) for nonneg in (True, False)]
    out += [_at_scale(m, n, nonneg) for m, n in CELLS for nonneg in (False, True)]
    return out + [_above_64(m, n, True) for m, n in extension.CELLS] + [_above_64(m, n, False) for m, n in extension.signed_cells()]


covers, build = files_cover(entries)


def restrict(doc: dict, m: int) -> dict:
    """A checked level-family certificate at m' > m restricted to m (support S ∩ [0, m], THEORY U4)."""
    from ..upperbounds.levelfamily import verdicts

    return verdicts.restrict(doc, m)
