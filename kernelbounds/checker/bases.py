"""The service that finds the files a certificate names by sha256 (kind `rank-extension`,
docs/certificate-format-v2.md), made afresh for each check and handed only to the rules
that name files (``rules.NAMING``): the dispatcher keeps no state of it between checks.

**Resolution.**  A file is named by the sha256 (hex) of its bytes, with an optional file
name as a hint.  The candidates, in order: the explicit paths of the run (`--base PATH`
and the other files on the command line, or ``check_file(..., bases=...)``), the hinted
name in the folder of the certificate being checked, then every ``*.json`` file of that
folder in name order, then the hinted name among the certificates shipped with the package
(``kernelbounds/certificates``, so a committed extension checks from bytes or a copy).  A
candidate counts only when its bytes have exactly the named sha256 (the rule compares the
hash itself): the name and the path are never trusted.  A certificate read from standard
input or from bytes has no folder (explicit paths only).

**Work.**  ``plan`` lists the candidates without reading any (the folder's listing and one
``stat`` each; a file over ``max_file_bytes`` or not regular is left out), so the rule's work
estimate bounds the search (entries listed, files opened, bytes hashed) before it starts.
``find`` then reads each candidate at most once, under the reading limits of any input
file, and never more bytes than the plan gave it: a file that grew since is a resource
limit, never a longer search.  ``document`` parses the file found under the same limits as
a certificate, once; ``verdict`` checks it, once.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .errors import LimitExceeded, Rejection
from .jsonread import Node
from .limits import Limits

if TYPE_CHECKING:
    from . import Verdict

SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "certificates")  # kernelbounds/certificates


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Plan:
    """The search for one hinted name: the folder entries listed and the candidate files
    (path, size from stat) in the order they are read."""

    listed: int
    files: tuple[tuple[str, int], ...]

    @property
    def bytes(self) -> int:
        return sum(size for _, size in self.files)


@dataclass(frozen=True)
class Found:
    path: str
    data: bytes


class Bases:
    """The files one certificate may name.  ``read(path, limits)``: a file's bytes under the
    reading limits (a Rejection if it cannot be read or is too large); ``parse(data, limits)``:
    a document under the reading limits; ``judge(doc, path)``: the checker's verdict on a
    parsed named file (in process)."""

    def __init__(self, path: str, explicit: Sequence[str], limits: Limits,
                 read: Callable[[str, Limits], bytes], parse: Callable[[bytes, Limits], Node],
                 judge: Callable[[Node, str], Verdict]) -> None:
        self.path, self.limits = path, limits
        self.explicit = tuple(p for p in explicit if p and p != "-")
        self._read, self._parse, self._judge = read, parse, judge
        self._plans: dict[str | None, Plan] = {}
        self._found: dict[str, Found | None] = {}
        self._docs: dict[str, Node] = {}
        self._verdicts: dict[str, Verdict] = {}

    def _folder(self) -> str | None:
        if not self.path or self.path == "-" or self.path.startswith("<"):
            return None
        folder = os.path.dirname(self.path) or "."
        return folder if os.path.isdir(folder) else None

    def plan(self, name: str | None) -> Plan:
        """The candidates for a hinted name (stat only; computed once per name)."""
        if name in self._plans:
            return self._plans[name]
        paths, listed = list(self.explicit), 0
        folder = self._folder()
        if folder is not None:
            if name:
                paths.append(os.path.join(folder, name))
            try:
                entries = sorted(os.listdir(folder))
            except OSError:
                entries = []
            listed = len(entries)
            paths += [os.path.join(folder, f) for f in entries if f.endswith(".json")]
        if name:  # last: the hinted name among the certificates shipped beside the checker
            paths.append(os.path.join(SHIPPED, name))
        seen = {os.path.normpath(self.path)} if self.path else set()
        files = []
        for p in paths:
            key = os.path.normpath(p)
            if key in seen:
                continue
            seen.add(key)
            try:
                st = os.stat(p)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_size <= self.limits.max_file_bytes:
                files.append((p, st.st_size))
        self._plans[name] = Plan(listed, tuple(files))
        return self._plans[name]

    def find(self, digest: str, name: str | None) -> Found | None:
        """The first candidate of the plan whose bytes have this sha256 (each read at most
        once, never past its planned size), or None."""
        if digest not in self._found:
            self._found[digest] = None
            for path, size in self.plan(name).files:
                try:
                    data = self._read(path, replace(self.limits, max_file_bytes=size))
                except LimitExceeded:
                    raise LimitExceeded("/base/sha256", f"the candidate {path} grew past the {size} bytes planned for it while the named file was looked for; nothing was decided") from None
                except Rejection:
                    continue
                if sha256(data) == digest:
                    self._found[digest] = Found(path, data)
                    break
        return self._found[digest]

    def document(self, found: Found) -> Node:
        """The named file's document, parsed once under the reading limits (a Rejection if
        it is not JSON or too large to parse)."""
        if found.path not in self._docs:
            self._docs[found.path] = self._parse(found.data, self.limits)
        return self._docs[found.path]

    def verdict(self, found: Found) -> Verdict:
        """The checker's verdict on the named file, decided once."""
        if found.path not in self._verdicts:
            self._verdicts[found.path] = self._judge(self.document(found), found.path)
        return self._verdicts[found.path]
