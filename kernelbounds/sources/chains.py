"""The explicit nonnegative chain (THEORY U4'): a complement-basis level family with an
affine readout in closed form, checked exactly on its extreme classes
(``upperbounds.chain``; kind ``level-family``).  Stored (COMPUTED, list ``chains``) for
m = 1..64, n = 3..8 with the checker's verdict on its certificate."""

from __future__ import annotations

from functools import partial

from .protocol import Entry, Statement, no_description, verdict

NAME, KIND, SIDE = "chains", "level-family", "upper"
THEORY, METHOD = "U4'", "explicit chain"
STORED, COMPUTED = "features", True
describe = no_description

ROW = "chain"  # a stored row's name in `certificates --verify`
MAX_M, NS = 64, range(3, 9)


def label(kernel: str) -> tuple[str, str]:
    return METHOD, THEORY


def entries() -> list[Entry]:
    return []


def covers(m: int, n: int, variant: str, kernel: str) -> bool:
    return 1 <= m <= MAX_M and n in NS


def build(m: int, n: int, variant: str = "position-independent", kernel: str = "nonnegative") -> dict:
    from ..upperbounds import chain

    return chain.explicit(m, n).certificate()


def row(m: int, n: int, variant: str, lookup) -> dict | None:
    """The chain's rank and support at (m, n), with the checker's verdict on its certificate."""
    from ..upperbounds import chain

    c = chain.explicit(m, n)
    found = verdict(c.certificate(), f"explicit chain at m = {m}, n = {n}")
    return {"rank": c.rank, "support": list(c.support)} | found


def statements(m: int, n: int, variant: str, kernel: str, lookup) -> list[Statement]:
    c = lookup(NAME, m, n, "position-independent")
    return [Statement(c["rank"], METHOD, THEORY, m, f"complement basis, affine readout, support {c['support']} (no LP)", f"kernelbounds upper --m {m} --n {n} --nonnegative -o FILE",
                      True, found=c, at=(m, n, "position-independent"), where=f"explicit chain at m = {m}, n = {n}", build=partial(build, m, n))]
