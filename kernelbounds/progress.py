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
    """A progress bar with rate and ETA (tqdm) on a terminal, else a silent stand-in.  With
    total None (work whose size is unknown, such as one search) a status line whose clock
    keeps moving (``status``), never a bar frozen at 0."""
    if not live():
        return _Silent()
    if total is None:
        return status(desc)
    try:
        from tqdm import tqdm
    except ImportError:  # a checker-only install (docs/soundness.md) has no tqdm: the status line counts instead
        return status(desc)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, unit_scale=bool(total and total > 10_000), leave=False)


class status:
    """A status line on a terminal while a step without a progress measure runs (a search, a
    C call): what it does and the time since it started, redrawn every second by a daemon
    thread, erased when the step ends.  Off a terminal nothing.  Used as a context manager;
    ``update``/``set_postfix_str`` count finished items (shown after the text) so it can
    stand in for a bar."""

    TICK = 1.0

    def __init__(self, text: str):
        import threading

        self.text, self.count, self.note, self._skip = text, 0, "", False
        self._stop = threading.Event()
        self._thread = None
        if live():  # first drawn after one tick: a step that ends sooner shows nothing
            self._start = _now()
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def _draw(self) -> None:
        seconds = int(_now() - self._start)
        extra = f", {self.count} done" if self.count else ""
        note = f" ({self.note})" if self.note else ""
        try:
            sys.stderr.write(f"\r\x1b[K{self.text}{note}: running {seconds // 60}:{seconds % 60:02d}{extra}")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def _run(self) -> None:
        while not self._stop.wait(self.TICK):
            if self._skip:  # a line is being printed under it: redraw at the next tick, below it
                self._skip = False
                continue
            self._draw()

    def update(self, n: int = 1) -> None:
        """Count n finished items and erase the line now, so that a result printed next
        starts at the left margin (the line comes back below it at the next tick)."""
        self.count += n
        if self._thread is not None:
            self._skip = True
            self._erase()

    def _erase(self) -> None:
        try:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.note = text

    def close(self) -> None:
        if self._thread is not None and not self._stop.is_set():
            self._stop.set()
            self._thread.join()
            self._erase()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _now() -> float:
    import time

    return time.monotonic()


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
    from concurrent.futures import as_completed

    from .parallel import default_jobs, process_pool

    items, weights = list(items), [max(1, int(w)) for w in weights]
    if len(weights) != len(items):
        raise ValueError("one weight per item")
    order = sorted(range(len(items)), key=lambda i: (-weights[i], i))
    total = sum(weights)
    out: list = [None] * len(items)
    jobs = min(jobs or default_jobs(), len(items))
    with _weighted_bar(desc, unit, len(items)) as b:
        def advance(i: int) -> None:
            b.done += 1
            b.set_postfix_str(f"{b.done}/{len(items)} {unit}s", refresh=False)
            b.update(100 * weights[i] / total)

        if jobs <= 1:
            for i in order:
                out[i] = fn(items[i])
                advance(i)
            return out
        with process_pool(jobs) as pool:  # stopped at once when interrupted (parallel.stop)
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
        getattr(self.inner, "refresh", lambda: None)()  # every finished item redraws (a fraction of a percent too)

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.inner.set_postfix_str(text, refresh)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.inner.close()


def _weighted_bar(desc: str, unit: str, count: int) -> _Counted:
    if not live():
        return _Counted(_Silent())
    try:
        from tqdm import tqdm
    except ImportError:  # a checker-only install (docs/soundness.md) has no tqdm: no bar
        return _Counted(_Silent())

    fmt = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"
    return _Counted(tqdm(total=100, desc=desc, file=sys.stderr, dynamic_ncols=True, leave=False, bar_format=fmt, postfix=f"0/{count} {unit}s"))
