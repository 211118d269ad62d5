"""The shipped certificate set by name, and checking it as it is (no regeneration).

The committed certificates ship inside the package (``kernelbounds/certificates``: in the
repository a link to certificates/, in a wheel a folder of package data) beside the index
INDEX and the stored computed sources COMPUTED (docs/index-format.md).  This module names
them (``names``, ``path``: `kernelbounds certificates --list` / `--path NAME`,
``kb.certificate_path``) and checks a set without rebuilding it (``check_set``:
`kernelbounds certificates --check`, the main job scripts/run): every ``*.json`` file with
the independent checker, in parallel and the heaviest first, then the index against the
checker's verdicts.  The byte-for-byte regeneration is `kernelbounds certificates` without
``--check`` (scripts/regenerate).
"""

from __future__ import annotations

from ..errors import KernelboundsError
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..checker import Verdict

SUFFIX = ".json"


class UnknownCertificate(KernelboundsError, LookupError):
    """A name that is not a shipped certificate; the message says so in one line."""


def folder() -> Path:
    """The folder of the shipped certificates (inside the installed package)."""
    from ..vocabulary import shipped_path

    return shipped_path()


def names(target: str | Path | None = None) -> list[str]:
    """The sorted file names of the certificates in target (default: the shipped set)."""
    base = folder() if target is None else Path(target)
    return sorted(p.name for p in base.glob(f"*{SUFFIX}") if not p.is_dir())  # a FIFO or device is listed: the bounded reader refuses it by name


def path(name: str) -> Path:
    """The installed path of the shipped certificate ``name`` (its file name, with or
    without ``.json``; a path's folder part is ignored only if the file is not found
    there: ``certificates/witness-m24-n3-r8.json`` names the shipped file too)."""
    stem = Path(str(name)).name
    for candidate in (stem, stem + SUFFIX):
        if candidate.endswith(SUFFIX) and (folder() / candidate).is_file():
            return folder() / candidate
    raise UnknownCertificate(f"{name!r} is not a shipped certificate (`kernelbounds certificates --list` lists the {len(names())} shipped files)")


def local_or_shipped(name: str) -> tuple[str, bool]:
    """(the path to read, whether it is a shipped certificate): ``name`` itself when it
    exists here (or is ``-``), else the shipped certificate it names, else ``name`` (the
    caller reports the missing file as usual).  ``check``, ``evaluate --family`` and the
    API's certificate arguments resolve names this way, so the documented examples
    (``certificates/witness-m24-n3-r8.json``) run from a wheel in an empty folder too."""
    import os

    if name == "-" or os.path.lexists(name):
        return name, False
    try:
        return str(path(name)), True
    except UnknownCertificate:
        return name, False


# ---------------------------------------------------------------- checking a set as it is


@dataclass(frozen=True)
class Checked:
    """One file of the set and the checker's verdict on its bytes."""

    name: str
    verdict: Verdict
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class SetCheck:
    """The verdicts on every file of a set and what the index says about them."""

    rows: list[Checked]
    index_same: bool  # INDEX is byte for byte the index of the checker's verdicts (and of COMPUTED's sha256)
    unindexed: list[str]  # accepted files that INDEX does not list
    missing: list[str]  # files INDEX lists that are not in the folder
    code_files_stale: list[str]  # accepted code files whose sha256 COMPUTED does not record
    seconds: float = 0.0  # wall time
    work: int = 0  # the checker's work estimates, summed

    @property
    def rejected(self) -> list[Checked]:
        return [r for r in self.rows if not r.verdict.ok]

    @property
    def problems(self) -> int:
        return len(self.rejected) + (not self.index_same) + len(self.unindexed) + len(self.missing) + len(self.code_files_stale)

    @property
    def ok(self) -> bool:
        return self.problems == 0


# The checker's work estimate in units of about 100 ns (docs/soundness.md), plus a fixed cost
# per file (reading, the guard's child process, the verdict through a pipe): about 0.1 s.
PER_FILE_UNITS = 10**6


def _read(path: str):
    """A file's bytes through the checker's own reader (regular files only, opened
    non-blocking, at most max_file_bytes + 1 bytes read whatever the file system says), or
    the checker's verdict refusing it (a 3 GB file: one line, exit 3; never read whole)."""
    from ..checker import LIMIT, Limits, Verdict, read_input
    from ..checker.errors import Rejection

    try:
        return read_input(path, Limits())
    except Rejection as rej:
        return Verdict(path, rej.code, pointer=rej.pointer, reason=rej.reason)
    except MemoryError:
        return Verdict(path, LIMIT, reason="out of memory while reading the file")


def _check(item: tuple[str, bytes]):
    from ..checker import check_bytes

    path, data = item
    return check_bytes(data, path)


def _bytes(path: Path) -> bytes:
    """INDEX or COMPUTED of the folder, read as the certificates are (b"" when absent or
    refused: then it differs from the one the verdicts give, a problem reported as such)."""
    found = _read(str(path)) if path.is_file() else b""
    return found if isinstance(found, bytes) else b""


def check_set(target: str | Path | None = None, jobs: int | None = None) -> SetCheck:
    """Check every ``*.json`` file of target (default: the shipped set) with the checker (on
    ``jobs`` processes, the heaviest first by the checker's work estimate, a bar advancing by
    work on a terminal), then compare target/INDEX with the index built from these verdicts
    and target/COMPUTED's sha256.  The files are not rebuilt: the regeneration is
    `kernelbounds certificates` (scripts/regenerate)."""
    from ..checker import work_estimate
    from ..hub import index, stored
    from ..progress import pmap_weighted

    start = time.perf_counter()
    base = folder() if target is None else Path(target)
    listed = names(base)
    paths = [str(base / name) for name in listed]
    found = [_read(p) for p in paths]  # each file read once, bounded: the verdict is on exactly these bytes
    readable = [i for i, data in enumerate(found) if isinstance(data, bytes)]
    work = [work_estimate(found[i]) for i in readable]  # the estimate parses each file once: about 2 s for the whole shipped set
    verdicts = iter(pmap_weighted(_check, [(paths[i], found[i]) for i in readable], [w + PER_FILE_UNITS for w in work], jobs, "checking certificates (by work)", "file"))
    rows = [Checked(name, next(verdicts), got) if isinstance(got, bytes) else Checked(name, got, b"") for name, got in zip(listed, found, strict=True)]
    accepted = [r for r in rows if r.verdict.ok]
    computed_bytes = _bytes(base / stored.NAME)
    expected = index.text(index.document([index.entry(r.name, r.data, r.verdict) for r in accepted], index.sha256(computed_bytes)))
    index_bytes = _bytes(base / index.INDEX)
    index_same = index_bytes == expected.encode("ascii")
    try:
        in_index = {e["name"] for e in json.loads(index_bytes)["certificates"]}
    except (ValueError, KeyError, TypeError):
        in_index = set()
    try:
        code_files = json.loads(computed_bytes)["code_files"]
    except (ValueError, KeyError, TypeError, RecursionError):
        code_files = {}
    recorded = {name: e.get("sha256") for name, e in code_files.items() if isinstance(e, dict)} if isinstance(code_files, dict) else {}
    stale = [r.name for r in accepted if r.verdict.kind == "lower-bound" and recorded.get(r.name) != index.sha256(r.data)]
    return SetCheck(
        rows,
        index_same,
        sorted({r.name for r in accepted} - in_index),
        sorted(in_index - set(listed)),
        stale,
        time.perf_counter() - start,
        sum(work),
    )
