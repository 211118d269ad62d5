"""Rank refutations plus disjoint edges (THEORY U7+): the m = 6 refutation (rank 3) extended
by j disjoint edges refutes rank 3 + j at m = 6 + 2j (kind ``rank-extension``,
``lowerbounds.rankextension``); each file names its base by sha256 and is checked beside it."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label
from .refutations import entry as refutation

NAME, KIND, SIDE = "extensions", "rank-extension", "lower"
THEORY, METHOD = "U7+", "rank refutation plus disjoint edges"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated


def entries() -> list[Entry]:
    from ..lowerbounds import rankextension

    out = []
    for m, n, variant in rankextension.CELLS:
        base = refutation(6, 3, n, variant)
        base = Entry(base.filename, rankextension.once(base.filename, base.build))
        out.append(Entry(*rankextension.entry(m, n, variant, base.filename, base.build), companions=(base,), cell=(m, n, variant, "signed")))
    return out


covers, build = files_cover(entries)
