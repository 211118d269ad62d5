"""The trusted base: check certificate files (docs/certificate-format-v1.md, -v2.md).

This package imports nothing from the rest of kernelbounds.  ``check_file`` returns a
:class:`Verdict` whose ``code`` is the process exit code:
0 valid, 1 invalid claim, 2 malformed input, 3 resource limit, 4 internal error.

**The rule protocol** (docs/soundness.md, "Work estimate").  ``rules.REGISTRY`` maps a
certificate kind to its rule module, which exposes two functions:

* ``work(doc: Node, limits: Limits) -> int``: an upper bound on the elementary operations
  ``check`` will perform, in the units of ``limits.py`` (``op``, ``mul``, ``frac``: one
  unit is about 100 ns on one core; a big number's operation costs by its bit size),
  computed from the document's sizes and string lengths before any work (reading the
  document is allowed, deriving its numbers is not).  It may raise ``Malformed`` for a
  document it cannot size.  Optional routes that ``check`` skips when they do not fit
  must use the same decision in both functions.
* ``check(doc: Node, limits: Limits) -> Outcome``: the verification itself.

``check_bytes`` calls ``work`` first and refuses with exit 3 (at the pointer ``""``)
when the estimate exceeds ``limits.work_budget``; a new rule module joins by adding
itself to the registry with both functions (``rules.Rule``, a typing Protocol that mypy
checks every registered module against).  Behind the estimate, the runtime guard
(``guard.py``) runs every check, of every kind, in a child process whose CPU time and
memory the kernel limits (``limits.time_limit``, ``limits.memory_limit``), so a wrong
estimate costs at most the budget and gives exit 3, never a runaway.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from . import bases as _bases
from . import guard as _guard
from .common import read_header
from .errors import CODE_NAMES, INTERNAL, LIMIT, MALFORMED, VALID, Code, LimitExceeded, Malformed, Rejection
from .jsonread import Node, parse_json
from .limits import Limits
from .rules import REGISTRY
from .text import escape, show

__all__ = ["Code", "Verdict", "Limits", "check_bytes", "check_file", "read_input", "work_estimate", "REGISTRY"]

MAX_REASON_CHARS = 4000


@dataclass
class Verdict:
    path: str
    code: Code
    kind: str = ""
    summary: str = ""
    routes: list[str] = field(default_factory=list)
    pointer: str = ""
    reason: str = ""
    seconds: float = 0.0
    work: int = 0  # the work estimate (0 if the file was refused before it)
    derived: object = None  # a false claim's exact derived value (for tools; see errors.Rejection)
    claim: dict | None = None  # a valid file's claim on r*(m, n) as the rule re-derived it (common.Outcome)
    bases: dict = field(default_factory=dict, repr=False)  # verdicts on files named by sha256, for the parent's memo (bases.py)

    @property
    def ok(self) -> bool:
        return self.code == VALID

    def line(self) -> str:
        """The verdict on exactly one line; every file-derived string escaped and bounded
        (the summary, the pointer and the reason each at most MAX_REASON_CHARS, whatever
        a rule put in them: so for every kind, present and future)."""
        if self.ok:
            return f"VALID {escape(self.path)}: {escape(bounded(self.summary))}"
        return f"{CODE_NAMES[self.code].upper()} {escape(self.path)}: at {escape(bounded(self.pointer or '/'))}: {escape(bounded(self.reason))}"

    def render(self, verbose: bool = True) -> str:
        """The verdict line, and (verbose, valid files) one indented line per route."""
        lines = [self.line()]
        if verbose and self.ok:
            lines += [f"  - {escape(bounded(r))}" for r in self.routes]
            lines.append(f"  checked in {self.seconds:.2f} s (work estimate {show(self.work)} units)")
        return "\n".join(lines)


def bounded(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """text cut to `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def check_bytes(data: bytes, path: str = "<bytes>", limits: Limits | None = None, guard: bool = True, bases: list[str] | tuple[str, ...] | None = None) -> Verdict:
    """Check one certificate's bytes under the limits.  With ``guard`` (the default) the
    check runs under the runtime guard (``guard.py``): ``limits.time_limit`` CPU seconds
    and ``limits.memory_limit`` bytes, enforced while it runs; a breach is exit 3 naming
    the budget.  ``guard=False`` checks in process (the work estimate and the reading
    limits still apply; for campaigns that run many small checks).  ``bases``: explicit
    paths where a file named by sha256 is looked for, before the folder of ``path``
    (``bases.py``)."""
    limits = limits or Limits()
    problem = limits.guard_problem() if isinstance(limits, Limits) else f"limits must be a Limits, not {type(limits).__name__}"
    if problem:  # refused before anything runs: a usage error, never a traceback
        return Verdict(path, MALFORMED, reason=f"unusable limits: {problem}")
    digest = _bases.sha256(data)
    known = _bases.known(digest, limits)
    if known is not None:  # checked earlier in this process as a file another one names (bases.py)
        return replace(known, path=path, bases={})
    with _bases.checking(path, None if bases is None else tuple(bases)):
        verdict = _check_guarded(data, path, limits, guard)
    _bases.merge(verdict.bases)
    verdict.bases = {}  # handed to the memo: a memoised verdict never carries others (no chain to pickle)
    if verdict.kind in NAMED_KINDS:
        _bases.remember((digest, limits), verdict, pending=False)
    return verdict


NAMED_KINDS = ("rank-refutation",)  # kinds another certificate may name by sha256 (their verdicts are memoised)


def _check_top(data: bytes, path: str, limits: Limits) -> Verdict:
    verdict = _check_bytes(data, path, limits)
    verdict.bases = _bases.take_new()
    return verdict


def _check_guarded(data: bytes, path: str, limits: Limits, guard: bool) -> Verdict:
    if not (guard and _guard.active(limits.time_limit, limits.memory_limit)):
        return _check_top(data, path, limits)
    start = time.perf_counter()
    outcome, amount, note = _guard.run(lambda: _check_top(data, path, limits), limits.time_limit, limits.memory_limit)
    seconds = time.perf_counter() - start
    if outcome == "ok":
        verdict = amount
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


def _check_bytes(data: bytes, path: str, limits: Limits) -> Verdict:
    """The check itself, in process: reading limits, the work estimate, the rule."""
    start = time.perf_counter()
    kind, work = "", 0
    try:
        if len(data) > limits.max_file_bytes:
            raise LimitExceeded("", f"file of {len(data)} bytes is over the limit {limits.max_file_bytes}")
        parse_memory = json_memory(data)
        if parse_memory > limits.max_parse_bytes:
            raise LimitExceeded("", f"parsing would take about {parse_memory // 2**20} MiB of memory, over max_parse_bytes = {limits.max_parse_bytes}")
        doc = Node(parse_json(data))
        kind = read_header(doc)
        if kind not in REGISTRY:
            raise Malformed("/kind", f"unknown certificate kind {show(kind)}; known: {', '.join(sorted(REGISTRY))}")
        rule = REGISTRY[kind]
        work = rule.work(doc, limits)
        if work > limits.work_budget:
            raise LimitExceeded("", f"the work estimate {show(work)} units is over the budget work_budget = {limits.work_budget} (about {show(work // 10**7)} s); nothing was checked")
        outcome = rule.check(doc, limits)
        if doc["version"].int() != outcome.version:
            raise Malformed("/version", f"declares version {doc['version'].int()}, but the least version that has every kind and field used is {outcome.version}")
    except Rejection as rej:
        return Verdict(path, rej.code, kind, pointer=rej.pointer, reason=rej.reason, seconds=time.perf_counter() - start, work=work, derived=rej.derived)
    except MemoryError:
        return Verdict(path, LIMIT, kind, reason="out of memory", seconds=time.perf_counter() - start, work=work)
    except RecursionError:
        return Verdict(path, MALFORMED, kind, reason="nested too deeply", seconds=time.perf_counter() - start, work=work)
    except Exception as exc:  # a checker bug: report it, never a traceback
        return Verdict(path, INTERNAL, kind, reason=f"{type(exc).__name__}: {str(exc)[:MAX_REASON_CHARS]}", seconds=time.perf_counter() - start, work=work)
    return Verdict(path, VALID, kind, outcome.summary, outcome.routes, seconds=time.perf_counter() - start, work=work, claim=outcome.claim)


def work_estimate(data: bytes, limits: Limits | None = None) -> int:
    """The rule's work estimate for a certificate's bytes (the number ``check_bytes``
    compares with ``work_budget`` before checking), or 0 when the file is refused before
    it (too large, unparsable, an unknown kind, a document its rule cannot size).  For
    scheduling and progress only: it decides nothing."""
    limits = limits or Limits()
    try:
        if len(data) > limits.max_file_bytes or json_memory(data) > limits.max_parse_bytes:
            return 0
        doc = Node(parse_json(data))
        rule = REGISTRY.get(read_header(doc))
        estimate = getattr(rule, "work", None)
        return int(estimate(doc, limits)) if estimate is not None else 0
    except (Rejection, MemoryError, RecursionError, ValueError, TypeError, KeyError):
        return 0


def json_memory(data: bytes) -> int:
    """An upper bound on the bytes CPython's json needs for this text, from a C-speed count
    of its brackets and quotes (an object or array costs at most about 120 bytes, a
    string 60 plus its length; brackets inside strings only over-count)."""
    containers = data.count(b"{") + data.count(b"[")
    strings = data.count(b'"') // 2
    return containers * 120 + strings * 60 + 2 * len(data)


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


def check_file(path: str, limits: Limits | None = None, guard: bool = True, bases: list[str] | tuple[str, ...] | None = None) -> Verdict:
    """Check one file (``-`` = standard input): read it within the limits, then check it
    (under the runtime guard unless ``guard=False``; ``bases``: see :func:`check_bytes`)."""
    limits = limits or Limits()
    problem = limits.guard_problem() if isinstance(limits, Limits) else f"limits must be a Limits, not {type(limits).__name__}"
    if problem:
        return Verdict(path, MALFORMED, reason=f"unusable limits: {problem}")
    try:
        data = read_input(path, limits)
    except Rejection as rej:
        return Verdict(path, rej.code, pointer=rej.pointer, reason=rej.reason)
    except MemoryError:
        return Verdict(path, LIMIT, reason="out of memory while reading the file")
    return check_bytes(data, path, limits, guard, bases)


def worst_code(verdicts: list[Verdict]) -> int:
    """The exit code for several files: the most severe verdict."""
    return max((v.code for v in verdicts), default=VALID)  # Code is ordered by severity
