"""Looking for a file named by its sha256 (kind `rank-extension`, docs/certificate-format-v2.md):
the candidates and the bounded search through them.  Robustness, not soundness: the rule that
names a file compares the sha256 of the bytes found with the name itself, so where they were
found decides nothing (a reviewer of soundness may skip this module, as checker/budget.py).

**Candidates**, in order: the explicit paths of the run (`--base PATH` and the other files on
the command line, or ``check_file(..., bases=...)``), the hinted name in the folder of the
certificate being checked, then every ``*.json`` file of that folder in name order, then the
hinted name among the certificates shipped with the package (``kernelbounds/certificates``,
so a committed extension checks from bytes or a copy).  A certificate read from standard
input or from bytes has no folder (explicit paths only).

**Work.**  ``plan`` lists the candidates without reading any (the folder's listing and one
``stat`` each; a file over ``max_file_bytes`` or not regular is left out), so the rule's work
estimate bounds the search (entries listed, files opened, bytes hashed) before it starts.
``find`` then reads each candidate at most once, under the reading limits of any input file,
and never more bytes than the plan gave it: a file that grew since is a resource limit, never
a longer search.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .errors import LimitExceeded, Rejection
from .limits import Limits

SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "certificates")  # kernelbounds/certificates


@dataclass(frozen=True)
class Plan:
    """The search for one hinted name: the folder entries listed and the candidate files
    (path, size from stat) in the order they are read."""

    listed: int
    files: tuple[tuple[str, int], ...]

    @property
    def bytes(self) -> int:
        return sum(size for _, size in self.files)


class Search:
    """The candidates of one check (``path``: the certificate's own path, whose folder is
    searched; ``read(path, limits)``: a file's bytes under the reading limits)."""

    def __init__(self, path: str, explicit: Sequence[str], limits: Limits, read: Callable[[str, Limits], bytes]) -> None:
        self.path, self.limits, self._read = path, limits, read
        self.explicit = tuple(p for p in explicit if p and p != "-")
        self._plans: dict[str | None, Plan] = {}

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

    def find(self, digest: str, name: str | None) -> tuple[str, bytes] | None:
        """(path, bytes) of the first candidate of the plan whose bytes have this sha256 (each
        read at most once, never past its planned size), or None."""
        for path, size in self.plan(name).files:
            try:
                data = self._read(path, replace(self.limits, max_file_bytes=size))
            except LimitExceeded:
                raise LimitExceeded("/base/sha256", f"the candidate {path} grew past the {size} bytes planned for it while the named file was looked for; nothing was decided") from None
            except Rejection:
                continue
            if hashlib.sha256(data).hexdigest() == digest:
                return path, data
        return None
