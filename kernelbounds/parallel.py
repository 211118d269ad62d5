"""A process pool whose results do not depend on the number of workers.

``pmap(fn, items, jobs)`` returns ``[fn(x) for x in items]`` in the order of items;
with jobs = 1 (or a single item) it runs in this process.  fn must be a module-level
function and items picklable.  Searches and table rows reuse it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def pmap(fn: Callable[[T], R], items: Iterable[T], jobs: int | None = None) -> list[R]:
    """[fn(x) for x in items], computed by up to `jobs` processes (default: all cores)."""
    items = list(items)
    jobs = min(jobs or default_jobs(), len(items))
    if jobs <= 1:
        return [fn(x) for x in items]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items, chunksize=1))
