"""The checker's robustness layer: what bounds a check's resources, never what decides it
(docs/soundness.md, "What a reviewer reads").  A reviewer of soundness may skip this module,
``guard.py`` and the work estimates (``rules/*_work.py``): every function here returns the
file's bytes, a number, or a verdict the check itself produced, or refuses with exit 2, 3
or 4; none can make a verdict VALID.

* **Reading limits**: ``read_input`` (a regular file or standard input, non-blocking, at
  most ``max_file_bytes``) and ``admit`` (the memory that parsing would need, from
  ``json_memory``), both before the text is parsed.
* **The work estimate**: ``estimate`` asks the kind's estimate module (``ESTIMATES``) for an
  upper bound on the check's work, before any of it is done; the dispatcher refuses with
  exit 3 above ``limits.work_budget``.
* **The runtime guard**: ``guarded`` runs the check in a child process under the kernel's
  CPU and memory limits (``guard.py``) and turns every way the child ends into one verdict.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from . import guard as _guard
from .errors import INTERNAL, LIMIT, MALFORMED, LimitExceeded, Malformed
from .limits import Limits
from .search import Search
from .rules import (construction_work, crossing_work, directsum_work, explicit, levelfamily_work, levelminimality_work, lowerbound_work, multiblock_work, orthant_work,
                    rank_work, rankextension_work, rankone_work, rankrefutation_work, transcript_work)
from .text import show
from .verdict import MAX_REASON_CHARS, Verdict

if TYPE_CHECKING:
    from .jsonread import Node


class Estimate(Protocol):
    """A kind's work estimate: an upper bound on the elementary operations its rule's check
    performs (limits.py units), from the document's sizes before any work (reading the
    document is allowed, deriving its numbers is not); it may raise Malformed or
    LimitExceeded for a document it cannot size.  An optional route that the check skips
    when it does not fit takes the same decision in both (the check imports that decision
    from the estimate module, which then counts in its soundness reading)."""

    def work(self, doc: Node, limits: Limits) -> int:
        ...


class NamingEstimate(Protocol):
    """The estimate of a kind of rules.NAMING: it gets the same service as the check."""

    def work(self, doc: Node, limits: Limits, files: Any) -> int:
        ...


ESTIMATES: dict[str, Estimate] = {
    "construction": construction_work,
    "crossing": crossing_work,
    "direct-sum": directsum_work,
    "explicit-head": explicit,  # its check sizes the value-dimension route by the estimate: one module
    "rank-one-infeasible": rankone_work,
    "level-family": levelfamily_work,
    "level-family-minimality": levelminimality_work,
    "lower-bound": lowerbound_work,
    "multi-block-level-family": multiblock_work,
    "orthant": orthant_work,
    "rank": rank_work,
    "rank-refutation": rankrefutation_work,
    "transcript": transcript_work,
}

NAMING_ESTIMATES: dict[str, NamingEstimate] = {
    "rank-extension": rankextension_work,
}


DIGITS = re.compile(r"-?[0-9]+")  # an override's value: ASCII decimal digits


def parse_overrides(items: list[str], base: Limits | None = None) -> Limits:
    """base (default Limits()) with NAME=INTEGER overrides; ValueError names the bad item."""
    overrides = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not (sep and DIGITS.fullmatch(value)):  # ASCII digits only: int() would also take '1_0', '٦', '６'
            raise ValueError(f"expected NAME=INTEGER (ASCII digits), got {item[:60]!r}")
        overrides[name] = int(value)
        if overrides[name] < 0:
            raise ValueError(f"{name} must be >= 0")
    return (base or Limits()).with_overrides(**overrides)


def json_memory(data: bytes) -> int:
    """An upper bound on the bytes CPython's json needs for this text, from a C-speed count
    of its brackets and quotes (an object or array costs at most about 120 bytes, a
    string 60 plus its length; brackets inside strings only over-count)."""
    containers = data.count(b"{") + data.count(b"[")
    strings = data.count(b'"') // 2
    return containers * 120 + strings * 60 + 2 * len(data)


def admit(data: bytes, limits: Limits) -> None:
    """Refuse (exit 3) a text over max_file_bytes or whose parsing would need more than
    max_parse_bytes of memory."""
    if len(data) > limits.max_file_bytes:
        raise LimitExceeded("", f"file of {len(data)} bytes is over the limit {limits.max_file_bytes}")
    parse_memory = json_memory(data)
    if parse_memory > limits.max_parse_bytes:
        raise LimitExceeded("", f"parsing would take about {parse_memory // 2**20} MiB of memory, over max_parse_bytes = {limits.max_parse_bytes}")


def kind_estimate(kind: str, doc: Node, limits: Limits, files: Any) -> int:
    """The kind's work estimate (limits.py units); ``files``: the service its rule gets."""
    return NAMING_ESTIMATES[kind].work(doc, limits, files) if kind in NAMING_ESTIMATES else ESTIMATES[kind].work(doc, limits)


def within_budget(work: int, limits: Limits) -> None:
    """Refuse at once (exit 3) a work estimate over ``limits.work_budget``."""
    if work > limits.work_budget:
        raise LimitExceeded("", f"the work estimate {show(work)} units is over the budget work_budget = {limits.work_budget} (about {show(work // 10**7)} s); nothing was checked")


def search(path: str, explicit: tuple[str, ...], limits: Limits) -> Search:
    """The search for the files a certificate at ``path`` names by sha256 (search.py)."""
    return Search(path, explicit, limits, read_input)


def guarded(task: Callable[[], Verdict], path: str, limits: Limits, guard: bool) -> Verdict:
    """task() under the runtime guard (unless ``guard`` is off or both limits are 0): the
    child's own verdict, or exit 3 naming the budget it breached, or exit 4 for any other
    death; exit 2 at once for unusable limits (a usage error, never a traceback)."""
    problem = limits.guard_problem() if isinstance(limits, Limits) else f"limits must be a Limits, not {type(limits).__name__}"
    if problem:
        return Verdict(path, MALFORMED, reason=f"unusable limits: {problem}")
    if not (guard and _guard.active(limits.time_limit, limits.memory_limit)):
        return task()
    start = time.perf_counter()
    outcome, amount, note = _guard.run(task, limits.time_limit, limits.memory_limit)
    seconds = time.perf_counter() - start
    if outcome == "ok":
        verdict: Verdict = amount
        if verdict.code == LIMIT and verdict.reason.startswith("out of memory"):
            verdict.reason = f"out of memory: the check needed more than the memory budget memory_limit = {_mib(limits.memory_limit)} (--memory-limit); nothing was decided"
        return verdict
    if outcome == "time":
        why = f" ({note})" if note else ""
        return Verdict(path, LIMIT, reason=f"the check ran past the CPU-time budget time_limit = {limits.time_limit} s (--time-limit){why} after {amount:.1f} s; nothing was decided", seconds=seconds)
    if outcome == "memory":
        return Verdict(path, LIMIT, reason=f"the check needed more than the memory budget memory_limit = {_mib(limits.memory_limit)} (--memory-limit); nothing was decided", seconds=seconds)
    return Verdict(path, INTERNAL, reason=f"the checking process died ({note[:MAX_REASON_CHARS]})", seconds=seconds)


def _mib(amount: int) -> str:
    return f"{amount / 2**30:g} GiB" if amount >= 2**30 and amount % 2**28 == 0 else f"{amount / 2**20:g} MiB"


def read_input(path: str, limits: Limits) -> bytes:
    """The bytes of a regular file, or of standard input for ``-``, reading at most
    max_file_bytes + 1 bytes (the file system's size is not trusted, except that a file
    whose stated size is over the limit is refused without reading it).

    Devices, FIFOs, sockets and directories are refused (Malformed) without blocking:
    the file is opened non-blocking and checked with fstat before any read."""
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (`<&-`)
            raise Malformed("", "cannot read standard input: it is closed")
        try:
            return _read_bounded(sys.stdin.buffer, limits)
        except OSError as exc:
            raise Malformed("", f"cannot read standard input: {exc.strerror or exc}") from None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise Malformed("", f"cannot read the file: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        mode = info.st_mode
        if not stat.S_ISREG(mode):
            what = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
            raise Malformed("", f"refusing to read {what}: a certificate is a regular file (or - for standard input)")
        if info.st_size > limits.max_file_bytes:  # refused unread; a smaller stated size is not trusted (the read is bounded)
            raise LimitExceeded("", f"the file has {info.st_size} bytes, more than max_file_bytes = {limits.max_file_bytes}")
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            return _read_bounded(fh, limits)
    except OSError as exc:
        raise Malformed("", f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)


def _read_bounded(fh: BinaryIO, limits: Limits) -> bytes:
    data = fh.read(limits.max_file_bytes + 1)
    if len(data) > limits.max_file_bytes:
        raise LimitExceeded("", f"the file has more than max_file_bytes = {limits.max_file_bytes} bytes")
    return data
