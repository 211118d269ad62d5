"""The checker's verdicts on user files, cached on disk (docs/index-format.md, "User folders").

A verdict is a function of the file's bytes, the checker's code and its limits; the cache key
is the sha256 of those three (the checker's code by the sha256 of its source files, so an
edited checker never reuses an old verdict).  One JSON file per key in the per-user cache
directory: ``$KERNELBOUNDS_CACHE`` if set (``off`` switches the cache off), else
``$XDG_CACHE_HOME/kernelbounds``, else ``~/.cache/kernelbounds``; under it ``verdicts/``.
Entries are written atomically (a temporary file renamed over the name); an entry that is
unreadable, malformed or written for another key is ignored and rewritten.  Only definite
verdicts are kept (valid, invalid, malformed: exit 0, 1, 2); a resource limit or an internal
error is decided again next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import fields
from functools import lru_cache
from pathlib import Path

ENV = "KERNELBOUNDS_CACHE"
OFF = "off"
FORMAT = "kernelbounds-verdict"
KEPT_CODES = (0, 1, 2)
MAX_ENTRY_BYTES = 1 << 20  # a cache entry is small; a larger file there is not ours


def directory() -> Path | None:
    """The verdict cache's folder, or None when the cache is off."""
    given = os.environ.get(ENV)
    if given is not None and given.strip().lower() == OFF:
        return None
    if given:
        base = Path(given)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) / "kernelbounds" if xdg and os.path.isabs(xdg) else Path.home() / ".cache" / "kernelbounds"
    return base / "verdicts"


@lru_cache(maxsize=1)
def checker_fingerprint() -> str:
    """The sha256 of the checker's source files (names and bytes, in name order)."""
    from .. import checker

    root = Path(checker.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def key(sha256: str, limits) -> str:
    """The cache key of a file's verdict under these limits."""
    shown = ",".join(f"{f.name}={getattr(limits, f.name)}" for f in fields(limits))
    return hashlib.sha256(f"{sha256}|{checker_fingerprint()}|{shown}".encode()).hexdigest()


def load(k: str) -> dict | None:
    """The cached verdict record for key k (code, kind, claim, pointer, reason, variant), or None
    when absent, unreadable or malformed."""
    folder = directory()
    if folder is None:
        return None
    try:
        with open(folder / f"{k}.json", "rb") as fh:
            record = json.loads(fh.read(MAX_ENTRY_BYTES + 1))
    except (OSError, ValueError):
        return None
    if not (isinstance(record, dict) and record.get("format") == FORMAT and record.get("key") == k and record.get("code") in KEPT_CODES
            and isinstance(record.get("kind"), str) and isinstance(record.get("pointer"), str) and isinstance(record.get("reason"), str)
            and (record.get("claim") is None or isinstance(record["claim"], dict)) and (record.get("variant") is None or isinstance(record["variant"], str))):
        return None
    return record


def store(k: str, record: dict) -> None:
    """Keep a definite verdict record (code, kind, claim, pointer, reason, variant) under
    key k, atomically; a failure to write is ignored (the cache only saves time)."""
    folder = directory()
    if folder is None or record.get("code") not in KEPT_CODES:
        return
    record = dict(record, format=FORMAT, key=k)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                json.dump(record, fh, sort_keys=True, ensure_ascii=True)
            os.replace(tmp, folder / f"{k}.json")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except (OSError, TypeError, ValueError):
        return
