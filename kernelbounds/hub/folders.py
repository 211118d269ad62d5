"""A user's certificate folder, read safely and checked once (docs/index-format.md, "User folders").

Every ``*.json`` entry of the folder is read through the checker's own reader
(``checker.read_input``: opened non-blocking, regular files only, at most
``max_file_bytes`` + 1 bytes read whatever the file system says), and the sha256 and the
verdict come from those same bytes.  A file whose sha256 is listed in the shipped index is
not checked again: its claim is already the shipped one.  Any other file's verdict comes
from the disk cache (``cache.py``, keyed by sha256, the checker's code and its limits,
authenticated by the user's secret) or from the checker under its default limits and runtime
guard, and is cached, except a verdict that depends on the files beside it (a rank
extension's base), which is decided again each time.  Each file that
cannot be read or that the checker rejects is named in one escaped warning line and
ignored; an accepted file's claim (lower, upper or family-minimum) is returned for the hub.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..vocabulary import sha256
from . import cache
from .cache import warn  # one warning per (path, why) per process, shared with the cache (cache.WARNED)

_MEMO: dict = {}  # cache key (or (key, folder listing) for a verdict on other files too) -> verdict record, for this process
def read_bounded(path: str, limits=None) -> bytes:
    """A user file's bytes through the checker's reader (regular files only, non-blocking,
    at most max_file_bytes); ValueError with the checker's one-line reason otherwise."""
    from ..checker import Limits, read_input
    from ..checker.errors import Rejection

    try:
        return read_input(path, limits or Limits())
    except Rejection as rej:
        raise ValueError(rej.reason) from None
    except MemoryError:
        raise ValueError("out of memory while reading it") from None


def verdict_record(data: bytes, digest: str, path: str, limits, listing: str | None = None) -> dict:
    """The checker's verdict on these bytes as a record (code, kind, claim, pointer,
    reason, variant): from this process's memo, the disk cache, or the checker.  A verdict
    that depends on the files beside it (``cache.depends_on_other_files``) is never kept on
    disk, and in this process only under ``listing`` (:func:`listing` of its folder)."""
    k = cache.key(digest, limits)
    record = _MEMO.get(k) or _MEMO.get((k, listing)) or _well_formed(cache.load(k))
    if record is None:
        from ..checker import check_bytes

        v = check_bytes(data, path, limits)
        variant = None
        if v.ok:
            try:
                doc = json.loads(data)
                variant = doc.get("variant") if isinstance(doc.get("variant"), str) else None
            except (ValueError, AttributeError):
                pass
        record = {"code": int(v.code), "kind": v.kind, "claim": v.claim, "pointer": v.pointer, "reason": v.reason, "variant": variant}
        cache.store(k, record)  # not one that depends on other files
    if not cache.depends_on_other_files(record["kind"]):
        _MEMO[k] = record
    elif listing is not None:
        _MEMO[(k, listing)] = record
    return record


def listing(folder: Path) -> str | None:
    """The state of a folder's entries (name, size, modification time, inode of each, in
    name order, hashed; None when it cannot be listed): a verdict that depends on the files
    beside it is reused in this process only while this stays the same."""
    h = hashlib.sha256()
    try:
        with os.scandir(folder) as found:
            names = sorted((e.name, e) for e in found)
        for name, entry in names:
            try:
                st = entry.stat()
                h.update(f"{name!r}|{st.st_size}|{st.st_mtime_ns}|{st.st_ino}\n".encode("utf-8", "surrogateescape"))
            except OSError:
                h.update(f"{name!r}|?\n".encode("utf-8", "surrogateescape"))
    except OSError:
        return None
    return h.hexdigest()


def _well_formed(record: dict | None) -> dict | None:
    """A cached record whose claim has the shape of a checker's claim (else None: re-check)."""
    from .entrycheck import claim_problem

    if record is None:
        return None
    claim = record.get("claim")
    if claim is not None and claim_problem(claim, claim.get("m"), claim.get("n"), record.get("variant")):
        return None
    return record


def rejection(record: dict) -> str:
    """The warning's reason for a rejected file (the checker's verdict, bounded)."""
    from ..checker.errors import CODE_NAMES

    name = CODE_NAMES.get(record["code"], str(record["code"]))
    return f"the checker rejects it ({name} at {record['pointer'] or '/'}: {record['reason'][:200]})"


def claims(folder: str, shipped_hashes, make_claim) -> tuple:
    """The claims of every ``*.json`` file of the folder that the checker accepts, in name
    order (``make_claim(name, sha256, kind, variant, claim, folder)`` builds one, or None
    for a verdict that claims nothing on r*); files whose sha256 is in ``shipped_hashes``
    are skipped (the shipped index already holds their claims)."""
    from ..checker import Limits

    root = Path(folder)
    if not root.is_dir():
        warn(folder, "not a folder")
        return ()
    limits = Limits()
    try:
        paths = sorted(p for p in root.iterdir() if p.name.endswith(".json"))
    except OSError as exc:
        warn(folder, f"cannot list it ({exc.strerror or exc})")
        return ()
    out = []
    state = listing(root)
    for path in _progress(paths):
        try:
            data = read_bounded(str(path), limits)
        except ValueError as exc:
            warn(str(path), f"cannot read it ({exc})")
            continue
        digest = sha256(data)
        if digest in shipped_hashes:
            continue
        record = verdict_record(data, digest, str(path), limits, state)  # the same bytes: no second read
        del data  # not kept while the next file is read
        if record["code"] != 0:
            warn(str(path), rejection(record))
            continue
        try:
            k = make_claim(path.name, digest, record["kind"], record["variant"], record["claim"], str(root))
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            warn(str(path), "its verdict's claim has an unexpected shape")
            continue
        if k is not None:
            out.append(k)
    return tuple(out)


def _progress(paths: list[Path]):
    from ..progress import track

    return track(paths, len(paths), "checking user certificates", "file") if len(paths) > 3 else paths
