"""The dispatcher: what decides a verdict (docs/soundness.md, "What a reviewer reads").

``judge`` reads a certificate's header, asks the robustness layer for the kind's work
estimate (``budget.py``: it can refuse with exit 3, never accept), and hands the document
to the kind's rule (``rules.REGISTRY``; a kind in ``rules.NAMING`` also gets the service its
module makes for this check).  ``check_bytes`` runs that under the runtime guard.  The
entry points that read files or only estimate (``check_file``, ``estimate``) are in
``entry.py``; the package's ``__init__`` re-exports both.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from . import budget
from .common import read_header
from .errors import INTERNAL, LIMIT, MALFORMED, VALID, Malformed, Rejection
from .jsonread import Node, parse_json
from .limits import Limits
from .rules import NAMING, REGISTRY
from .text import show
from .verdict import MAX_REASON_CHARS, Verdict


def check_bytes(data: bytes, path: str = "<bytes>", limits: Limits | None = None, guard: bool = True, bases: list[str] | tuple[str, ...] | None = None) -> Verdict:
    """Check one certificate's bytes under the limits.  With ``guard`` (the default) the
    check runs under the runtime guard (``guard.py``): ``limits.time_limit`` CPU seconds
    and ``limits.memory_limit`` bytes, enforced while it runs; a breach is exit 3 naming
    the budget.  ``guard=False`` checks in process (the work estimate and the reading
    limits still apply; for campaigns that run many small checks).  ``bases``: explicit
    paths where a file named by sha256 is looked for, before the folder of ``path``
    (``bases.py``)."""
    limits = limits or Limits()
    return budget.guarded(lambda: decide(data, path, limits, tuple(bases or ())), path, limits, guard)


def document(data: bytes, limits: Limits) -> Node:
    """The JSON document of a certificate's text, parsed after the reading limits
    (``budget.admit``: a refusal with exit 3, never a decision)."""
    budget.admit(data, limits)
    return Node(parse_json(data))


def decide(data: bytes, path: str, limits: Limits, explicit: tuple[str, ...] = ()) -> Verdict:
    """The check itself, in process: the document, the work estimate, the rule."""
    return judge(lambda: document(data, limits), path, limits, explicit)


def service_for(kind: str, path: str, explicit: tuple[str, ...], limits: Limits) -> object:
    """For a kind of rules.NAMING, the service its rule makes for this check (given the
    search for files named from this path and the explicit paths, the parser, and this
    checker for a named file, whose work its user's estimate includes); None otherwise."""
    if kind not in NAMING:
        return None

    def judge_named(doc: Node, named: str) -> Verdict:
        return judge(lambda: doc, named, limits, (), estimate=False)

    return NAMING[kind].service(budget.search(path, explicit, limits), limits, document, judge_named)


def judge(read: Callable[[], Node], path: str, limits: Limits, explicit: tuple[str, ...], estimate: bool = True) -> Verdict:
    """The verdict on the document ``read()`` gives: its header, the work estimate
    (``estimate``: off for a named file), the rule."""
    start = time.perf_counter()
    kind, work = "", 0
    try:
        doc = read()
        kind = read_header(doc)
        if kind not in REGISTRY and kind not in NAMING:
            raise Malformed("/kind", f"unknown certificate kind {show(kind)}; known: {', '.join(sorted([*REGISTRY, *NAMING]))}")
        files = service_for(kind, path, explicit, limits)
        if estimate:
            work = budget.kind_estimate(kind, doc, limits, files)
            budget.within_budget(work, limits)
        outcome = NAMING[kind].check(doc, limits, files) if kind in NAMING else REGISTRY[kind].check(doc, limits)
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
