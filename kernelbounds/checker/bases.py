"""Certificates that name another certificate by its sha256 (kind `rank-extension`,
docs/certificate-format-v2.md): where the named file is looked for, and the memo that
checks each such file once per run.

**Resolution.**  A file is named by the sha256 (hex) of its bytes, with an optional file
name as a hint.  The candidates, in order: the explicit paths of the run (`--base PATH`
and the other files on the command line, or ``check_file(..., bases=...)``), the hinted
name in the folder of the certificate being checked, then every ``*.json`` file of that
folder in name order, then the hinted name among the certificates shipped with the package
(``kernelbounds/certificates``, so a committed extension checks from bytes or a copy).  A candidate counts only when its bytes (a regular file, at most
``max_file_bytes``) have exactly the named sha256: the name and the path are never
trusted.  A certificate read from standard input or from bytes has no folder (explicit
paths only).  At most MAX_SCAN_BYTES are read in one search (the search runs before the work
estimate, so it is bounded on its own).

**Memo.**  A verdict is a pure function of the bytes and the limits, so the verdict on a
named file is kept under (sha256, limits) for the rest of the process.  Checks run in a
forked child (guard.py); the child's new verdicts travel back in ``Verdict.bases`` and the
dispatcher adds them to the parent's memo, so the next child inherits them: in a run over
a folder each named file is checked once.  Verdicts of exit 3 or 4 (a limit or a checker
bug) are not kept.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager

from typing import TYPE_CHECKING, Any, Iterator

from .errors import INTERNAL, LIMIT, Rejection
from .limits import Limits

if TYPE_CHECKING:
    from . import Verdict

_context: dict[str, Any] = {"path": None, "extra": ()}
_memo: dict[tuple[str, Limits], Verdict] = {}  # (sha256, limits) -> Verdict
_new: dict[tuple[str, Limits], Verdict] = {}  # the verdicts added since the current top-level check began
_hashes: dict[tuple[str, int, int], str] = {}  # (path, size, mtime_ns) -> sha256


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def checking(path: str, extra: tuple[str, ...] | None = None) -> Iterator[None]:
    """The file being checked (its folder is searched) and the explicit paths; restored
    after (a named file is checked inside its user's check)."""
    saved = dict(_context)
    _context["path"] = path
    if extra is not None:
        _context["extra"] = tuple(extra)
    try:
        yield
    finally:
        _context.update(saved)


def _folder() -> str | None:
    path = _context["path"]
    if not path or path == "-" or path.startswith("<"):
        return None
    folder = os.path.dirname(path) or "."
    return folder if os.path.isdir(folder) else None


def _read(path: str, limits: Limits) -> tuple[str, bytes] | None:
    """(sha256, bytes) of a regular file within max_file_bytes, else None; the hash is
    cached by (path, size, modification time)."""
    from . import read_input

    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (path, st.st_size, st.st_mtime_ns)
    if st.st_size > limits.max_file_bytes:
        return None
    try:
        data = read_input(path, limits)
    except Rejection:
        return None
    digest = sha256(data)
    _hashes[key] = digest
    return digest, data


def _candidates(name: str | None) -> list[str]:
    out = [p for p in _context["extra"] if p and p != "-"]
    folder = _folder()
    if folder is not None:
        if name:
            out.append(os.path.join(folder, name))
        try:
            out += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".json")]
        except OSError:
            pass
    if name:  # last: the hinted name among the certificates shipped beside the checker
        out.append(os.path.join(SHIPPED, name))
    current = _context["path"] or ""
    return [p for p in out if os.path.normpath(p) != os.path.normpath(current)]


SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "certificates")  # kernelbounds/certificates
MAX_SCAN_BYTES = 2**30  # bytes read while looking for a named file (before the work estimate)


def resolve(digest: str, name: str | None, limits: Limits) -> tuple[str, bytes] | None:
    """(path, bytes) of the first candidate whose bytes have this sha256, or None (also when
    the candidates read so far exceed MAX_SCAN_BYTES: the search is bounded before any
    work estimate)."""
    seen: set[str] = set()
    scanned = 0
    for path in _candidates(name):
        if os.path.normpath(path) in seen:
            continue
        seen.add(os.path.normpath(path))
        try:
            st = os.stat(path)
        except OSError:
            continue
        cached = _hashes.get((path, st.st_size, st.st_mtime_ns))
        if cached is not None and cached != digest:
            continue
        if st.st_size > limits.max_file_bytes:  # never read (_read refuses it): costs nothing
            continue
        scanned += st.st_size
        if scanned > MAX_SCAN_BYTES:
            return None
        found = _read(path, limits)
        if found is not None and found[0] == digest:
            return path, found[1]
    return None


def verdict(digest: str, path: str, data: bytes, limits: Limits) -> Verdict:
    """The checker's verdict on a named file (in process: the caller already runs under
    the guard), memoised by (sha256, limits)."""
    key = (digest, limits)
    if key not in _memo:
        from . import _check_bytes

        with checking(path):
            found = _check_bytes(data, path, limits)
        remember(key, found)
    return _memo[key]


def remember(key: tuple[str, Limits], found: Verdict, pending: bool = True) -> None:
    """Memoise a decided verdict; ``pending``: also queue it for the parent (a guarded
    child's nested checks), never a top-level verdict the parent already holds."""
    if found.code not in (LIMIT, INTERNAL) and key not in _memo:
        _memo[key] = found
        if pending:
            _new[key] = found


def take_new() -> dict[tuple[str, Limits], Verdict]:
    """The verdicts memoised since the last call (sent from a guarded child to its parent)."""
    out = dict(_new)
    _new.clear()
    return out


def merge(found: dict[tuple[str, Limits], Verdict]) -> None:
    """Add verdicts a child computed to this process's memo."""
    for key, v in found.items():
        remember(key, v)
    _new.clear()


def known(digest: str, limits: Limits) -> Verdict | None:
    """The memoised verdict, or None."""
    return _memo.get((digest, limits))
