"""The time limit of an evaluation, enforced while it runs (``evaluate --max-seconds``).

The estimate (:func:`kernelbounds.heads.evaluate.estimate_seconds`, which counts the
sizes of the head's numbers) refuses most work that would run too long before it starts;
this module bounds the rest: ``with limit(seconds):`` sets a deadline for the code run
inside it, and the routes call :func:`check` at every step of their loops (a block of
inputs, a query, a class, a candidate), which raises :class:`TimeLimit` once the
deadline has passed.  A step is one query's or one class's exact work, so the limit is
overshot by at most one step.  No limit is set by default (the API evaluates to the
end); nested limits keep the earlier deadline.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import KernelboundsError

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("evaluation_deadline", default=None)  # (monotonic deadline, seconds)


class TimeLimit(KernelboundsError, RuntimeError):
    """The evaluation ran past its time limit: nothing was decided (the CLI's exit 3)."""


@contextmanager
def limit(seconds: float | None) -> Iterator[None]:
    """Run the block under a deadline `seconds` from now (None: no limit)."""
    if seconds is None:
        yield
        return
    current = _DEADLINE.get()
    deadline = time.monotonic() + seconds
    token = _DEADLINE.set((deadline, seconds) if current is None or deadline < current[0] else current)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check() -> None:
    """Raise TimeLimit when the deadline of the enclosing ``limit`` has passed."""
    current = _DEADLINE.get()
    if current is not None and time.monotonic() > current[0]:
        raise TimeLimit(f"the evaluation ran past its time limit of {current[1]:g} s; nothing was decided")
