"""The explicit nonnegative chain (THEORY U4'): a complement-basis level family with an
affine readout in closed form, checked exactly on its extreme classes
(``upperbounds.chain``; kind ``level-family``).  Stored (COMPUTED, list ``chains``) for
m = 1..64, n = 3..8 with the checker's verdict on its certificate."""

from __future__ import annotations

from functools import partial

from .protocol import Entry, Statement, no_description, verdict
from .rowshape import Problem, fields, sha, whole

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


FIELDS = {"m", "n", "rank", "support", "sha256", "claim"}


def shape(row, where: str, m: int, n: int, variant: str, cell: dict) -> list[Problem]:
    """A stored chain row: exactly :data:`FIELDS`, its support levels in 0..m and its rank in
    1..2^m (THEORY U2)."""
    out = fields(row, FIELDS, where)
    if out:
        return out
    support = row["support"]
    if not (isinstance(support, list) and all(type(j) is int and 0 <= j <= m for j in support)):
        out.append((f"{where}/support", f"not a list of levels 0..{m}"))
    return out + whole(row["rank"], 1, 2**m, f"{where}/rank", "the chain's rank") + sha(row, where)


def statements(m: int, n: int, variant: str, kernel: str, lookup) -> list[Statement]:
    c = lookup(NAME, m, n, "position-independent")
    return [Statement(c["rank"], METHOD, THEORY, m, f"complement basis, affine readout, support {c['support']} (no LP)", f"kernelbounds upper --m {m} --n {n} --nonnegative -o FILE",
                      True, found=c, at=(m, n, "position-independent"), where=f"explicit chain at m = {m}, n = {n}", build=partial(build, m, n))]
