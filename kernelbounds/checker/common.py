"""Small exact helpers shared by the rules (no generator code)."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import lcm

from .errors import Invalid, Malformed
from .jsonread import Node
from .text import show

FORMAT = "kernelbounds-certificate"
VERSIONS = (1, 2)  # v2 = v1 plus the kinds and fields of docs/certificate-format-v2.md


def scale_to_ints(values: list[Fraction]) -> tuple[list[int], int]:
    """(integers, d) with values[i] = integers[i] / d and d > 0."""
    d = lcm(*(v.denominator for v in values)) if values else 1
    return [v.numerator * (d // v.denominator) for v in values], d


def differences(values: list[Fraction]) -> list[Fraction]:
    """The forward differences at 0: [(Delta^j v)(0) for j = 0..len(values) - 1] (the level
    expansion v(l) = sum_j (Delta^j v)(0) C(l, j), THEORY U4)."""
    out, row = [], list(values)
    while row:
        out.append(row[0])
        row = [b - a for a, b in pairwise(row)]
    return out


def rat(x: Fraction) -> str:
    """A rational for a message: exact when short, abbreviated (digit count) when long."""
    return show(x)


def expect_equal(node: Node, claimed: object, derived: object, what: str) -> None:
    """Reject when a claimed number differs from the re-derived one."""
    if claimed != derived:
        raise Invalid(node.pointer, f"claims {what} = {show(node.value)}, but the checker derives {show(derived)}", derived=derived)


def read_header(doc: Node) -> str:
    """Check format and version; return the kind."""
    if not isinstance(doc.value, dict):
        raise Malformed("", "a certificate must be a JSON object")
    fmt = doc["format"].str()
    if fmt != FORMAT:
        raise Malformed("/format", f"unknown format {show(fmt)}; expected {FORMAT!r}")
    version = doc["version"]
    if version.int() not in VERSIONS:
        raise Malformed("/version", f"unsupported format version {show(version.value)}; this checker reads versions {', '.join(map(str, VERSIONS))}")
    return doc["kind"].str()


def require_version(doc: Node, node: Node, version: int, what: str) -> None:
    """Reject a field or kind that the file's declared format version does not have.

    A rule that reads a v2 feature calls this and returns ``Outcome(..., version=2)``:
    a file must declare exactly the least version that covers what it uses.
    """
    if doc["version"].int() < version:
        raise Malformed(node.pointer, f"{what} needs format version {version}; the file declares version {doc['version'].int()}")


class Outcome:
    """What a rule proved: a one-line summary, one line per verification route, and the
    claim on r*(m, n) as the rule re-derived it (``claim``: None for kinds that bound no r*).

    ``claim`` is a JSON-able dict built only from numbers the rule itself re-derived, never
    copied from the file unchecked: ``side`` ("lower" or "upper"), ``value`` (the bound on the
    feature rank r), ``m``, ``n``, ``variants`` (the variants of THEORY §1/L5 it holds for,
    sorted), ``kernels`` (the kernel classes it holds for, sorted, among "nonnegative",
    "signed", "signed-any-denominator"), and for upper bounds ``nonnegative_features``
    (bool) and ``support`` (a level family's support, for the restriction closure, or None).
    The index of the committed set (the hub's only source of committed claims) records it."""

    def __init__(self, summary: str, routes: list[str] | None = None, version: int = 1, claim: dict | None = None):
        self.summary = summary
        self.routes = routes or []
        self.version = version  # the least format version that has every kind and field used
        self.claim = claim


# ----------------------------------------------------------------- sizing for work(...)
# Tolerant readers: a work estimate sizes the document without deciding anything, so a
# value of the wrong type counts as a default here and is rejected later by `check`.


def sized(node: Node, key: str | int) -> object:
    """The raw JSON value at node[key], or None when absent."""
    v = node.value
    if isinstance(key, str):
        return v.get(key) if isinstance(v, dict) else None
    return v[key] if isinstance(v, list) and -len(v) <= key < len(v) else None


def length(value: object) -> int:
    return len(value) if isinstance(value, (list, str)) else 0


def small_int(value: object, default: int, lo: int = 0, hi: int | None = None) -> int:
    """An integer field for sizing: the value if it is an int within [lo, hi], else default."""
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        return default
    return value


def height(value: object) -> int:
    """Bits of a rational string "p/q" (numerator + denominator), from its length."""
    return len(value) * 10 // 3 + 2 if isinstance(value, str) else 64


def heights(value: object) -> list[int]:
    """Heights of a list of rational strings (empty for anything else)."""
    return [height(x) for x in value] if isinstance(value, list) else []


def digits_bits(count: int) -> int:
    """Bits of an integer written with `count` decimal digits (log2 10 < 10/3)."""
    return count * 10 // 3 + 1


def row_height(value: object) -> tuple[int, int]:
    """(numerator bits, denominator-lcm bits) of a list of rational strings, from the text:
    the largest numerator, and the lcm of the denominators bounded by the product of the
    distinct ones.  A row scaled by that lcm has entries of at most the sum of both."""
    if not isinstance(value, list):
        return 64, 0
    texts = {x for x in value if isinstance(x, str)}
    num = den = 0
    dens = set()
    for x in texts:
        a, _, b = x.partition("/")
        num = max(num, len(a))
        if b:
            dens.add(b)
    den = sum(digits_bits(len(b)) for b in dens)
    return digits_bits(num), den


def read_cost(value: object) -> int:
    """Units to read a table of rational strings into Fractions (a Node and a parse per
    entry; CPython's str -> int conversion is quadratic in the digits)."""
    stack, total = [value], 0
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            if v and isinstance(v[0], str):
                total += sum(40 + len(x) * len(x) // 20000 for x in v if isinstance(x, str))
            else:
                stack.extend(v)
        elif isinstance(v, str):
            total += 40 + len(v) * len(v) // 20000
    return total
