"""A parallel map whose results do not depend on where it runs.

``pmap(fn, items, jobs)`` returns ``[fn(x) for x in items]`` in the order of items, computed
by one of:

- this process (jobs = 1, or a single item);
- a ``ProcessPoolExecutor`` of ``jobs`` processes (the default: all cores);
- any ``concurrent.futures.Executor`` the caller passes (``executor=``), which it keeps
  owning (pmap neither starts nor shuts it down);
- a Dask cluster (``scheduler=ADDRESS``, the optional extra ``kernelbounds[dask]``): the
  address of a running ``dask.distributed`` scheduler (``tcp://host:8786``), or ``local``
  for a ``LocalCluster`` of ``jobs`` worker processes on this machine, started and stopped
  around the call.

fn must be a module-level function and items picklable (Dask workers import fn by name, so
they need kernelbounds installed).  Every item is submitted, and results are collected in
item order, so the list is the same whatever the executor: the table over m <= 64, n <= 8
(the job that can outgrow one machine) gives the same rows on a laptop and on a cluster.

The pool's workers die with the process that started them: on Linux each asks the kernel
for SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``, through ctypes, as the
checker's guard does for its child), so a SIGTERM or SIGKILL to ``kernelbounds table
--jobs 2`` leaves no worker computing on as an orphan.  An interrupted map stops its pool
at once (``process_pool``): when the parent is interrupted (Ctrl-C, or the command line's
SIGTERM handler) the queued items are cancelled and the running workers terminated, so
the command ends within a second instead of after every queued item.  Workers ignore
SIGINT (Ctrl-C reaches the whole process group: the parent alone decides to stop) and
keep SIGTERM's default action.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import TypeVar
from .errors import InvalidArgument, KernelboundsError


T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"  # the scheduler "address" that starts a LocalCluster for the call
CONNECT_SECONDS = 20  # how long to wait for a remote scheduler before giving up


PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a pool worker: ask for SIGKILL when the parent dies (Linux; elsewhere nothing),
    and exit at once if the parent is already gone (it died before the request)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


def worker_start(parent: int) -> None:
    """A pool worker's initializer: die with the parent (``die_with_parent``), leave Ctrl-C
    to the parent, and let SIGTERM end it (not a handler inherited from the parent)."""
    die_with_parent(parent)
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except (ValueError, OSError):
        pass


STOP_SECONDS = 1.0  # after SIGTERM, how long a worker has before SIGKILL


@contextmanager
def process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A ProcessPoolExecutor of `jobs` workers (``worker_start``): shut down normally when
    the block ends, stopped at once (``stop``) when it raises, KeyboardInterrupt included."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=worker_start, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued items and end the running workers: SIGTERM, then SIGKILL after
    STOP_SECONDS for any still alive, each reaped (no orphan, no zombie); then wait (at
    most STOP_SECONDS) for the pool's manager thread to close its pipes, so no write races
    their closing (the interpreter's exit hook wakes that thread: on a pipe being closed it
    printed an OSError traceback, EBADF, after the one 'interrupted' line)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # the pool's workers (public only from Python 3.14 on)
    manager = getattr(pool, "_executor_manager_thread", None)  # private too: None before the first submit
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        try:
            worker.terminate()
        except (OSError, ValueError, AttributeError):
            pass
    for worker in workers:
        try:
            worker.join(STOP_SECONDS)
            if worker.is_alive():
                worker.kill()
                worker.join(STOP_SECONDS)
        except (OSError, ValueError, AssertionError, AttributeError):
            pass
    if manager is not None:
        try:
            manager.join(STOP_SECONDS)
        except RuntimeError:  # not started
            pass


class SchedulerError(KernelboundsError, RuntimeError):
    """The Dask executor cannot be used: the extra is not installed, or the scheduler does
    not answer.  The message says which, in one line, for the CLI."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def pmap(fn: Callable[[T], R], items: Iterable[T], jobs: int | None = None, *, executor: Executor | None = None, scheduler: str | None = None) -> list[R]:
    """[fn(x) for x in items]: in this process, a process pool of up to `jobs` workers
    (default: all cores), the caller's `executor`, or a Dask `scheduler` (see the module)."""
    items = list(items)
    if executor is not None and scheduler is not None:
        raise InvalidArgument("give an executor or a scheduler address, not both")
    if executor is not None:
        return run_on(executor, fn, items)
    if scheduler is not None:
        with dask_executor(scheduler, jobs) as ex:
            return run_on(ex, fn, items)
    jobs = min(jobs or default_jobs(), len(items))
    if jobs <= 1:
        return [fn(x) for x in items]
    with process_pool(jobs) as pool:
        return list(pool.map(fn, items, chunksize=1))


def run_on(executor: Executor, fn: Callable[[T], R], items: list[T]) -> list[R]:
    """Submit every item, then collect the results in item order (an exception of fn is
    raised here, for the first failing item in order).  When the caller is interrupted the
    items not yet started are cancelled (the executor itself stays the caller's)."""
    futures = []
    try:
        futures += [executor.submit(fn, x) for x in items]
        return [f.result() for f in futures]
    except BaseException:
        for f in futures:
            f.cancel()
        raise


@contextmanager
def dask_executor(address: str, jobs: int | None = None) -> Iterator[Executor]:
    """A ``concurrent.futures.Executor`` over a Dask cluster: the scheduler at `address`, or
    a LocalCluster of `jobs` single-threaded worker processes for ``local``.  The client
    (and a local cluster) are closed on exit."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SchedulerError("the Dask executor needs the optional extra: pip install 'kernelbounds[dask]'") from None
    cluster = None
    try:
        if address == LOCAL:
            cluster = LocalCluster(n_workers=jobs or default_jobs(), threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster, set_as_default=False)
        else:
            client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise SchedulerError(f"cannot reach the Dask scheduler {address!r}: {exc}") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
