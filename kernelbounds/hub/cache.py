"""The checker's verdicts on user files, cached on disk (docs/index-format.md, "User folders";
the threat model: docs/soundness.md, "The verdict cache").

A verdict is a function of the file's bytes, the checker's code and its limits; the cache key
is the sha256 of those three (the checker's code by the sha256 of its source files, so an
edited checker never reuses an old verdict).  One JSON file per key in the per-user cache
directory: ``$KERNELBOUNDS_CACHE`` if set (``off`` switches the cache off), else
``$XDG_CACHE_HOME/kernelbounds``, else ``~/.cache/kernelbounds``; under it ``verdicts/``.

**Trusted no further than the user's own files.**  The cache folder and ``verdicts/`` are
opened without following a symbolic link (``O_NOFOLLOW``; the entries relative to the open
folder, so no path can be swapped between the check and the read) and used only when they
are folders owned by the current user that neither group nor others can write; otherwise
one warning line, and the command runs uncached.  An entry is opened the same way,
non-blocking (a FIFO never blocks), and read only when it is a regular file of this user,
not writable by group or others, of at most MAX_ENTRY_BYTES (else one warning line, and the
file is checked again).  Every entry carries an HMAC-SHA256 of its fields under a per-user
secret (``verdicts/secret``: 32 random bytes, created 0600 on first use by an ``O_EXCL``
temporary file hard-linked into place, so two processes never see half a key); an entry
whose HMAC does not verify (forged, or copied from another cache) is never believed.

Entries are written atomically (a temporary file renamed over the name); an entry that is
unreadable, malformed, unauthenticated or written for another key is ignored and rewritten.
Only definite verdicts are kept (valid, invalid, malformed: exit 0, 1, 2); a resource limit
or an internal error is decided again next time.  A verdict that depends on other files
(:func:`depends_on_other_files`: a rank extension's base is looked for beside it) is never
kept: it would outlive the files it was decided on.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import secrets
import stat
import sys
from dataclasses import fields
from functools import lru_cache
from pathlib import Path

from ..errors import KernelboundsError

ENV = "KERNELBOUNDS_CACHE"
OFF = "off"
FORMAT = "kernelbounds-verdict"
KEPT_CODES = (0, 1, 2)
MAX_ENTRY_BYTES = 1 << 20  # a cache entry is small; a larger file there is not ours
SECRET = "secret"
SECRET_BYTES = 32
NAMING_KINDS = ("rank-extension",)  # kinds whose rule looks for a file they name (checker/rules.NAMING)
_OPEN = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FOLDER = _OPEN | getattr(os, "O_DIRECTORY", 0)
_ENTRY = _OPEN | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


class Untrusted(KernelboundsError):
    """A cache folder or entry the cache does not read (the reason in one line)."""


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


def user() -> int:
    """The user whose files the cache trusts (the effective user id)."""
    return os.geteuid()


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


def depends_on_other_files(kind) -> bool:
    """Whether a verdict of this kind depends on files other than the one checked (its rule
    looks for a file it names by sha256 among the files beside it: checker/bases.py)."""
    return kind in NAMING_KINDS


WARNED: set[tuple[str, str]] = set()


def warn(path: str, why: str) -> None:
    """One warning line on stderr, escaped by the checker's one routine (a file name with
    ESC or a newline cannot forge a second line); each (path, why) once per process."""
    from ..checker.text import escape

    if (path, why) not in WARNED:
        WARNED.add((path, why))
        print(escape(f"kernelbounds: warning: ignoring {path}: {why}"), file=sys.stderr)


def _owned(info: os.stat_result, what: str) -> None:
    """Untrusted unless the node is this user's and neither group nor others can write it."""
    if info.st_uid != user():
        raise Untrusted(f"the {what} is owned by another user (uid {info.st_uid}), not by uid {user()}")
    if info.st_mode & 0o022:
        raise Untrusted(f"the {what} is writable by group or others (mode {stat.S_IMODE(info.st_mode):o})")


def _open_folder(name: str | Path, dir_fd: int | None, create: bool) -> int | None:
    """A trusted folder's descriptor (created 0700 if absent and ``create``), or None when it
    is absent; Untrusted for a symbolic link, a non-folder or another's folder."""
    for attempt in (0, 1):
        try:
            fd = os.open(name, _FOLDER, dir_fd=dir_fd)
        except FileNotFoundError:
            if not create or attempt:
                return None
            try:
                os.mkdir(name, 0o700, dir_fd=dir_fd)
            except FileExistsError:
                pass
            continue
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise Untrusted("the folder is a symbolic link or not a folder") from None
            raise
        try:
            _owned(os.fstat(fd), "folder")
        except BaseException:
            os.close(fd)
            raise
        return fd
    return None


def _folder(create: bool) -> int | None:
    """The descriptor of the verdict folder when the cache is on and trusted, else None (one
    warning line when it is there but not trusted)."""
    folder = directory()
    if folder is None:
        return None
    where = folder.parent
    try:
        if create:
            where.parent.mkdir(parents=True, exist_ok=True)
        top = _open_folder(where, None, create)
        if top is None:
            return None
        where = folder
        try:
            return _open_folder(folder.name, top, create)
        finally:
            os.close(top)
    except Untrusted as exc:
        warn(str(where), f"the verdict cache is not used: {exc}; checking without it")
    except OSError:
        pass  # an unusable cache only costs time
    return None


def _read(fd: int, name: str, what: str, private: bool = False) -> bytes | None:
    """A regular file of the trusted folder, opened non-blocking without following a link:
    its bytes (at most MAX_ENTRY_BYTES), None when absent; Untrusted otherwise (``private``:
    nobody else may read it either)."""
    try:
        efd = os.open(name, _ENTRY, dir_fd=fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Untrusted(f"the {what} is a symbolic link" if exc.errno == errno.ELOOP else f"cannot open the {what} ({exc.strerror or exc})") from None
    try:
        info = os.fstat(efd)
        if not stat.S_ISREG(info.st_mode):
            raise Untrusted(f"the {what} is {'a FIFO' if stat.S_ISFIFO(info.st_mode) else 'not a regular file'}")
        _owned(info, what)
        if private and info.st_mode & 0o077:
            raise Untrusted(f"the {what} is readable by group or others (mode {stat.S_IMODE(info.st_mode):o})")
        if info.st_size > MAX_ENTRY_BYTES:
            raise Untrusted(f"the {what} has {info.st_size} bytes, more than {MAX_ENTRY_BYTES}")
        chunks, size = [], 0
        while size <= MAX_ENTRY_BYTES:
            chunk = os.read(efd, MAX_ENTRY_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_ENTRY_BYTES:
            raise Untrusted(f"the {what} grew past {MAX_ENTRY_BYTES} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise Untrusted(f"cannot read the {what} ({exc.strerror or exc})") from None
    finally:
        os.close(efd)


def _secret(fd: int, create: bool) -> bytes | None:
    """This user's HMAC key (``verdicts/secret``), created on first use when ``create``."""
    found = _read(fd, SECRET, "key file", private=True)
    if found is None and create:
        tmp = f".tmp-secret-{secrets.token_hex(8)}"
        tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=fd)
        try:
            with os.fdopen(tfd, "wb") as fh:
                fh.write(secrets.token_bytes(SECRET_BYTES))
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.link(tmp, SECRET, src_dir_fd=fd, dst_dir_fd=fd)  # never replaces: another process's key wins
            except FileExistsError:
                pass
        finally:
            os.unlink(tmp, dir_fd=fd)
        found = _read(fd, SECRET, "key file", private=True)
    if found is not None and len(found) != SECRET_BYTES:
        raise Untrusted(f"the key file has {len(found)} bytes, not {SECRET_BYTES}")
    return found


def _mac(secret: bytes, record: dict) -> str:
    body = {k: v for k, v in record.items() if k != "mac"}
    return hmac.new(secret, json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii"), hashlib.sha256).hexdigest()


def _well_formed(record, k: str) -> bool:
    return (isinstance(record, dict) and record.get("format") == FORMAT and record.get("key") == k and record.get("code") in KEPT_CODES
            and isinstance(record.get("kind"), str) and isinstance(record.get("pointer"), str) and isinstance(record.get("reason"), str)
            and (record.get("claim") is None or isinstance(record["claim"], dict)) and (record.get("variant") is None or isinstance(record["variant"], str))
            and isinstance(record.get("mac"), str) and not depends_on_other_files(record["kind"]))


def load(k: str) -> dict | None:
    """The cached verdict record for key k (code, kind, claim, pointer, reason, variant), or None
    when absent, unreadable, malformed, not authenticated by this user's secret, or in a
    folder or file the cache does not trust (one warning line)."""
    fd = _folder(create=False)
    if fd is None:
        return None
    where = SECRET
    try:
        secret = _secret(fd, create=False)
        where = f"{k}.json"
        data = _read(fd, where, "entry") if secret is not None else None
    except Untrusted as exc:
        warn(str(directory() / where), f"{exc}; checking without it")
        return None
    finally:
        os.close(fd)
    if data is None:
        return None
    try:
        record = json.loads(data)
    except ValueError:
        return None
    if not _well_formed(record, k) or not hmac.compare_digest(record["mac"], _mac(secret, record)):
        return None
    return {f: record.get(f) for f in ("code", "kind", "claim", "pointer", "reason", "variant")}


def store(k: str, record: dict) -> None:
    """Keep a definite verdict record (code, kind, claim, pointer, reason, variant) under
    key k, atomically, authenticated by this user's secret; a failure to write is ignored
    (the cache only saves time), and so is a verdict that depends on other files."""
    if record.get("code") not in KEPT_CODES or depends_on_other_files(record.get("kind")):
        return
    fd = _folder(create=True)
    if fd is None:
        return
    try:
        secret = _secret(fd, create=True)
        if secret is None:
            return
        record = dict(record, format=FORMAT, key=k)
        text = json.dumps(dict(record, mac=_mac(secret, record)), sort_keys=True, ensure_ascii=True).encode("ascii")
        tmp = f".tmp-{secrets.token_hex(8)}"
        tfd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=fd)
        try:
            with os.fdopen(tfd, "wb") as fh:
                fh.write(text)
            os.replace(tmp, f"{k}.json", src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=fd)
            except OSError:
                pass
            raise
    except Untrusted as exc:
        warn(str(directory() / SECRET), f"{exc}; checking without it")
    except (OSError, TypeError, ValueError):
        return
    finally:
        os.close(fd)
