"""A toy source for tests/hub/test_toy_source.py: the whole of what adding a source takes
(this module and one registry line).  It restates THEORY L7 (sign rank >= VC dimension,
r >= floor(m/2)) on a tiny grid: one committed file at m = 4, n = 3 and one stored row per
variant at m = 5, n = 3, each certified by the orthant family's certificate."""

from __future__ import annotations

from functools import partial

from kernelbounds.sources.protocol import Entry, Statement, no_description, plain_label, verdict
from kernelbounds.sources.rowshape import verdict_row

NAME = "toy"
KIND = "orthant"
THEORY = "L7"
METHOD = "toy orthant family"
SIDE = "lower"
STORED = "cell"
COMPUTED = True
CELL = (5, 3)

label = plain_label(METHOD, THEORY)
describe = no_description
shape = verdict_row  # its stored row is a bound beside a checker verdict


def build(m: int, n: int, variant: str, kernel: str = "nonnegative") -> dict:
    from kernelbounds.lowerbounds import signrank

    return signrank.orthant(m, n, variant).certificate()


def covers(m: int, n: int, variant: str, kernel: str) -> bool:
    return (m, n) == CELL and kernel in ("nonnegative", "signed")


def entries() -> list[Entry]:
    return [Entry("toy-m04-n3.json", lambda: build(4, 3, "position-independent"), cell=(4, 3, "position-independent", "nonnegative"))]


def row(m: int, n: int, variant: str, lookup) -> dict | None:
    if (m, n) != CELL:
        return None
    return {"bound": m // 2} | verdict(build(m, n, variant), f"toy at m = {m}, n = {n} ({variant})")


def statements(m: int, n: int, variant: str, kernel: str, lookup) -> list[Statement]:
    r = lookup(NAME, m, n, variant)
    return [] if r is None else [Statement(r["bound"], METHOD, THEORY, m, "the toy's row", found=r, at=(m, n, variant), where=f"toy row at m = {m}, n = {n}",
                                           build=partial(build, m, n, variant))]
