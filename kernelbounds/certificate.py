"""Writing certificates: canonical JSON, exact-number encodings, atomic writes (docs/certificate-format-v1.md)."""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

FORMAT = "kernelbounds-certificate"
VERSION = 1  # files that use a kind or field of format v2 pass version=2 to header()


def rational(x: Fraction | int) -> str:
    """A rational as the string "p/q" in lowest terms, or "p" when it is an integer, exactly
    whatever its size (``decimal``)."""
    x = Fraction(x)
    return decimal(x.numerator) if x.denominator == 1 else f"{decimal(x.numerator)}/{decimal(x.denominator)}"


def decimal(x: int) -> str:
    """An integer in decimal, exactly: beyond Python's int-to-str limit (4300 digits, a
    guard against converting untrusted text) the limit is lifted for this one conversion.
    The numbers written here were computed by the library, with work bounded beforehand
    (e.g. ``evaluate``'s estimate counts the head's bit lengths); messages never print them
    whole (``kernelbounds.shown``)."""
    try:
        return str(x)
    except ValueError:
        limit = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(x)
        finally:
            sys.set_int_max_str_digits(limit)


def header(kind: str, version: int = VERSION) -> dict:
    """The common header; version 2 only for files that use a v2 kind or field."""
    return {"format": FORMAT, "version": version, "kind": kind}


def canonical_json(doc: dict) -> str:
    """Sorted keys, one-space indent, ASCII only, trailing newline: byte-identical output."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=True, allow_nan=False) + "\n"


def written_through(path: str | os.PathLike) -> bool:
    """True when path exists and is not a regular file (a symlink, a character or block
    device, a FIFO, a socket, a folder): such a node is never replaced, it is opened and
    written in place (docs/cli.md, "Output files"), so `-o /dev/null`, `-o /dev/stdout` or a
    FIFO that something reads work and the node stays what it was."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


@contextmanager
def _reader_held(target: Path) -> Iterator[None]:
    """For a FIFO (also through a symlink): opening it to write waits until something reads
    it, forever when nothing does, so it is first opened without waiting; no reader is an
    OSError (ENXIO, "a FIFO with no reader"), and with one this probe stays open while the
    block writes (the reader sees no end of file before the bytes)."""
    try:
        fifo = stat.S_ISFIFO(os.stat(target).st_mode)
    except OSError:
        fifo = False
    if not fifo:
        yield
        return
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a FIFO with no reader (writing would wait forever)", str(target)) from None
        raise
    try:
        yield
    finally:
        os.close(fd)


@contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary file beside path to write into; when the block succeeds it is synced and
    renamed over path (readers see the old file or the whole new one), else removed.  The
    one atomic writer of the package: certificates, tables and plots all go through it.
    Only a new path or a regular file is replaced: for any other existing node (see
    written_through) the block writes to path itself, in place, and the node is kept."""
    target = Path(path)
    if written_through(target):
        with _reader_held(target):
            yield target
        return
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        yield Path(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Write ASCII text (or bytes, exactly: a file named by its sha256) to path atomically
    (see replacing)."""
    with replacing(path) as tmp:
        if isinstance(text, bytes):
            with open(tmp, "wb") as fh:
                fh.write(text)
            return
        with open(tmp, "w", encoding="ascii", newline="\n") as fh:
            fh.write(text)
