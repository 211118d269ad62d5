"""Writing certificates: canonical JSON, exact-number encodings, atomic writes (docs/certificate-format-v1.md)."""

from __future__ import annotations

import json
import os
import tempfile
from fractions import Fraction
from pathlib import Path

FORMAT = "kernelbounds-certificate"
VERSION = 1  # files that use a kind or field of format v2 pass version=2 to header()


def rational(x: Fraction | int) -> str:
    """A rational as the string "p/q" in lowest terms, or "p" when it is an integer."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def header(kind: str, version: int = VERSION) -> dict:
    """The common header; version 2 only for files that use a v2 kind or field."""
    return {"format": FORMAT, "version": version, "kind": kind}


def canonical_json(doc: dict) -> str:
    """Sorted keys, one-space indent, ASCII only, trailing newline: byte-identical output."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=True, allow_nan=False) + "\n"


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write text to path so that readers see either the old file or the whole new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_certificate(path: str | os.PathLike, doc: dict) -> None:
    write_atomic(path, canonical_json(doc))
