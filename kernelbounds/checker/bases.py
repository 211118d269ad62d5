"""The service that gives the rank-extension rule the file its certificate names by sha256
(docs/certificate-format-v2.md), made afresh for each check and handed only to the rules
that name files (``rules.NAMING``): the dispatcher keeps no state of it between checks.

What the rule trusts of it: ``document(found)`` is the parse of ``found.data`` (by the
dispatcher's reader, under the reading limits of any certificate), once; ``verdict(found)`` is
the checker's own verdict on that document, once.  Which file is found (``find``, through the
robustness layer's ``search.Search``) it does not trust: it compares the sha256 of the bytes
with the name itself.  ``plan`` is the search's plan, for the work estimate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .jsonread import Node
from .limits import Limits

if TYPE_CHECKING:
    from .search import Plan, Search
    from .verdict import Verdict


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Found:
    path: str
    data: bytes


class Bases:
    """The files one certificate names.  ``parse(data, limits)``: a document under the reading
    limits; ``judge(doc, path)``: the checker's verdict on a parsed named file (in process)."""

    def __init__(self, search: Search, limits: Limits, parse: Callable[[bytes, Limits], Node], judge: Callable[[Node, str], Verdict]) -> None:
        self.search, self.limits, self._parse, self._judge = search, limits, parse, judge
        self._found: dict[str, Found | None] = {}
        self._docs: dict[str, Node] = {}
        self._verdicts: dict[str, Verdict] = {}

    def plan(self, name: str | None) -> Plan:
        return self.search.plan(name)

    def find(self, digest: str, name: str | None) -> Found | None:
        """The file the search finds for this sha256 (looked for once), or None."""
        if digest not in self._found:
            hit = self.search.find(digest, name)
            self._found[digest] = None if hit is None else Found(*hit)
        return self._found[digest]

    def document(self, found: Found) -> Node:
        """The named file's document, parsed once (a Rejection if it is not JSON or too large)."""
        if found.path not in self._docs:
            self._docs[found.path] = self._parse(found.data, self.limits)
        return self._docs[found.path]

    def verdict(self, found: Found) -> Verdict:
        """The checker's verdict on the named file, decided once."""
        if found.path not in self._verdicts:
            self._verdicts[found.path] = self._judge(self.document(found), found.path)
        return self._verdicts[found.path]
