"""Small exact helpers shared by the rules (no generator code)."""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from .errors import Invalid, Malformed
from .jsonread import Node

FORMAT = "kernelbounds-certificate"
VERSION = 1


def scale_to_ints(values: list[Fraction]) -> tuple[list[int], int]:
    """(integers, d) with values[i] = integers[i] / d and d > 0."""
    d = lcm(*(v.denominator for v in values)) if values else 1
    return [v.numerator * (d // v.denominator) for v in values], d


def rat(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def expect_equal(node: Node, claimed, derived, what: str) -> None:
    """Reject when a claimed number differs from the re-derived one."""
    if claimed != derived:
        shown = rat(derived) if isinstance(derived, Fraction) else derived
        raise Invalid(node.pointer, f"claims {what} = {node.value!r}, but the checker derives {shown}")


def read_header(doc: Node) -> str:
    """Check format and version; return the kind."""
    if not isinstance(doc.value, dict):
        raise Malformed("", "a certificate must be a JSON object")
    fmt = doc["format"].str()
    if fmt != FORMAT:
        raise Malformed("/format", f"unknown format {fmt!r}; expected {FORMAT!r}")
    version = doc["version"]
    if version.int() != VERSION:
        raise Malformed("/version", f"unsupported format version {version.value}; this checker reads version {VERSION}")
    return doc["kind"].str()


class Outcome:
    """What a rule proved: a one-line summary and one line per verification route."""

    def __init__(self, summary: str, routes: list[str] | None = None):
        self.summary = summary
        self.routes = routes or []
