"""Small exact helpers shared by the rules (no generator code)."""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from .errors import Invalid, Malformed
from .jsonread import Node

FORMAT = "kernelbounds-certificate"
VERSIONS = (1, 2)  # v2 = v1 plus the kinds and fields of docs/certificate-format-v2.md


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
    if version.int() not in VERSIONS:
        raise Malformed("/version", f"unsupported format version {version.value}; this checker reads versions {', '.join(map(str, VERSIONS))}")
    return doc["kind"].str()


def require_version(doc: Node, node: Node, version: int, what: str) -> None:
    """Reject a field or kind that the file's declared format version does not have.

    A rule that reads a v2 feature calls this and returns ``Outcome(..., version=2)``:
    a file must declare exactly the least version that covers what it uses.
    """
    if doc["version"].int() < version:
        raise Malformed(node.pointer, f"{what} needs format version {version}; the file declares version {doc['version'].int()}")


class Outcome:
    """What a rule proved: a one-line summary and one line per verification route."""

    def __init__(self, summary: str, routes: list[str] | None = None, version: int = 1):
        self.summary = summary
        self.routes = routes or []
        self.version = version  # the least format version that has every kind and field used
