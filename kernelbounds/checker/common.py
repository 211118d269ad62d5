"""Small exact helpers shared by the rules (no generator code)."""

from __future__ import annotations

from fractions import Fraction

from .errors import Invalid, Malformed
from .jsonread import Node
from .text import show

FORMAT = "kernelbounds-certificate"
VERSIONS = (1, 2)  # v2 = v1 plus the kinds and fields of docs/certificate-format-v2.md


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
