"""The checker's entry points around the dispatcher, in the robustness layer (a reviewer
of soundness may skip them: each returns the dispatcher's verdict, a number, or a refusal
with exit 2, 3 or 4): ``check_file`` reads a file within the reading limits and hands its
bytes to ``dispatch.check_bytes``; ``estimate`` and ``work_estimate`` give the work
estimate a check would compare with ``limits.work_budget``, without checking.
"""

from __future__ import annotations

from .budget import kind_estimate, read_input
from .common import read_header
from .dispatch import NAMING, REGISTRY, check_bytes, document, service_for
from .errors import LIMIT, MALFORMED, Malformed, Rejection
from .limits import Limits
from .text import show
from .verdict import Verdict


def estimate(data: bytes, limits: Limits | None = None, path: str = "<bytes>") -> int:
    """The rule's work estimate for a certificate's bytes: the number ``check_bytes``
    compares with ``work_budget`` before checking (``path``: where the file lies, for a kind
    that names files beside it).  A Rejection when the file is refused before it."""
    limits = limits or Limits()
    doc = document(data, limits)
    kind = read_header(doc)
    if kind not in REGISTRY and kind not in NAMING:
        raise Malformed("/kind", f"unknown certificate kind {show(kind)}")
    return kind_estimate(kind, doc, limits, service_for(kind, path, (), limits))


def work_estimate(data: bytes, limits: Limits | None = None, path: str = "<bytes>") -> int:
    """:func:`estimate`, or 0 when the file is refused before it (too large, unparsable, an
    unknown kind, a document its rule cannot size).  For scheduling and progress only: it
    decides nothing."""
    try:
        return estimate(data, limits, path)
    except (Rejection, MemoryError, RecursionError, ValueError, TypeError, KeyError):
        return 0


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
