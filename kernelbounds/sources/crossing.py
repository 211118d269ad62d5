"""Single crossing (THEORY U6): rank 2 refuted, so r >= 3 (kind ``crossing``): committed at
m = 5 for n = 3..8, and for the other variants at n = 3, 4."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "crossing", "crossing", "lower"
THEORY, METHOD = "U6", "single crossing"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated


def _file(m: int, n: int, variant: str = "position-independent") -> Entry:
    from ..lowerbounds import crossing

    return Entry(f"crossing-{variant}-m{m:02d}-n{n}.json", lambda: crossing.refute(m, n, variant).certificate(), cell=(m, n, variant, "nonnegative"))


def entries() -> list[Entry]:
    return [_file(5, n) for n in range(3, 9)] + [_file(5, n, v) for n in (3, 4) for v in ("position-dependent", "causal")]


covers, build = files_cover(entries)
