"""Progress bars for long jobs: tqdm on a terminal, silent otherwise (floats: reports only)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


class _Silent:
    """The no-op bar used when stderr is not a terminal (pipes, CI, tests)."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


QUIET = False  # set by the CLI for --json output: no bars even on a terminal


def live() -> bool:
    """Bars are drawn only when standard error is a terminal (and not silenced by QUIET)."""
    if QUIET:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def bar(total: int | None, desc: str, unit: str = "it"):
    """A progress bar with rate and ETA (tqdm) on a terminal, else a silent stand-in."""
    if not live():
        return _Silent()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, unit_scale=bool(total and total > 10_000), leave=False)


def track(items: Iterable[T], total: int | None, desc: str, unit: str = "it") -> Iterator[T]:
    """Iterate over items while advancing a bar."""
    with bar(total, desc, unit) as b:
        for item in items:
            yield item
            b.update(1)


def pmap(fn, items: Iterable[T], jobs: int | None = None, desc: str = "", unit: str = "it", executor=None, scheduler: str | None = None) -> list:
    """``parallel.pmap`` with a bar on a terminal: the items run in chunks of 2 * jobs, the
    bar advancing per chunk (one chunk for an executor or a Dask scheduler); off a terminal
    exactly ``parallel.pmap``.  The results do not depend on the chunking."""
    from .parallel import default_jobs
    from .parallel import pmap as plain

    items = list(items)
    if not live() or not items:
        return plain(fn, items, jobs, executor=executor, scheduler=scheduler)
    step = len(items) if executor is not None or scheduler is not None else max(1, 2 * (jobs or default_jobs()))
    out: list = []
    with bar(len(items), desc, unit) as b:
        for i in range(0, len(items), step):
            chunk = items[i : i + step]
            out += plain(fn, chunk, jobs, executor=executor, scheduler=scheduler)
            b.update(len(chunk))
    return out


def pmap_weighted(fn, items: Iterable[T], weights: Iterable[int], jobs: int | None = None, desc: str = "", unit: str = "file") -> list:
    """``[fn(x) for x in items]`` on up to ``jobs`` processes (default: all cores), the
    heaviest items submitted first (so the longest ones do not start last); the results in
    the order of items.  On a terminal the bar advances by each finished item's weight
    (its share of the whole work, shown in percent), so the rate and the remaining time
    are measured in work done, not in items; the postfix counts the finished items."""
    import os
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from .parallel import default_jobs, die_with_parent

    items, weights = list(items), [max(1, int(w)) for w in weights]
    if len(weights) != len(items):
        raise ValueError("one weight per item")
    order = sorted(range(len(items)), key=lambda i: (-weights[i], i))
    total = sum(weights)
    out: list = [None] * len(items)
    jobs = min(jobs or default_jobs(), len(items))
    with _weighted_bar(desc, unit, len(items)) as b:
        def advance(i: int) -> None:
            b.update(100 * weights[i] / total)
            b.done += 1
            b.set_postfix_str(f"{b.done}/{len(items)} {unit}s", refresh=False)

        if jobs <= 1:
            for i in order:
                out[i] = fn(items[i])
                advance(i)
            return out
        with ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            futures = {pool.submit(fn, items[i]): i for i in order}
            for future in as_completed(futures):
                i = futures[future]
                out[i] = future.result()
                advance(i)
    return out


class _Counted:
    """A bar (or the silent stand-in) that also counts finished items."""

    def __init__(self, inner):
        self.inner, self.done = inner, 0

    def update(self, amount: float) -> None:
        self.inner.update(amount)

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.inner.set_postfix_str(text, refresh)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.inner.close()


def _weighted_bar(desc: str, unit: str, count: int) -> _Counted:
    if not live():
        return _Counted(_Silent())
    from tqdm import tqdm

    fmt = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"
    return _Counted(tqdm(total=100, desc=desc, file=sys.stderr, dynamic_ncols=True, leave=False, bar_format=fmt, postfix=f"0/{count} {unit}s"))
