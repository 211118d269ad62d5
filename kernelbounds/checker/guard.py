"""The runtime guard behind the work estimate (docs/soundness.md, "The runtime guard").

The work estimate refuses a file at once when its sizes predict too much work; this
module enforces the budget *while* a check runs, as drat-trim's time limit does, so a
file whose estimate is wrong still gets exit 3 instead of running away.  The check runs
in a forked child process with two kernel-enforced limits (``resource.setrlimit``):

* ``RLIMIT_CPU``: the soft limit is ``time_limit`` seconds of CPU time (rounded up); the
  kernel then sends SIGXCPU (default action: terminate), and SIGKILL one second later
  at the hard limit, even inside a long C call (FLINT).
* ``RLIMIT_AS``: the child may add at most ``memory_limit`` bytes of address space to
  what it inherits from the front end (a few tens of MB for the command line); an
  allocation beyond it fails, which Python reports as MemoryError and FLINT by an abort
  whose message the parent reads from the child's standard error.

The parent waits with a wall-clock backstop (``WALL_FACTOR`` x time_limit + ``WALL_SLACK``
seconds, for a child that sleeps or is starved) and turns every way the child can end
into exactly one verdict: the child's own verdict (pickled through a pipe), or exit 3
naming the budget that was breached, or exit 4 for any other death (a checker bug).
The child dies with its parent: on Linux it asks the kernel for SIGKILL when the front
end dies (``prctl(PR_SET_PDEATHSIG)``, through ctypes), and the parent kills and reaps it
when its wait is interrupted (KeyboardInterrupt on SIGINT, or any exception a host's
signal handler raises) and, from the main thread, on a SIGTERM whose action is the
default (then dies of that SIGTERM itself), so no check outlives the process that
asked for it.  The limits are bounded before they reach the kernel
(``Limits.guard_problem``; ``MAX_WALL`` and ``MAX_ADDRESS`` here as a second line).
The dispatcher (``check_bytes``) runs every check through it (``budget.guarded``), so
every kind, present and future, runs under it without code of its own.  ``time_limit = 0`` and ``memory_limit = 0``
switch the respective limit off; with both off the check runs in process.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

WALL_FACTOR = 10
WALL_SLACK = 30.0
STDERR_BYTES = 65536
MAX_WALL = 10**8  # seconds: select() and the monotonic deadline stay far inside time_t
MAX_ADDRESS = 2**62  # bytes: RLIMIT_AS stays inside rlim_t (and below RLIM_INFINITY)
PR_SET_PDEATHSIG = 1
_in_child = False  # set in the forked child: a nested check runs in process


def active(time_limit: float, memory_limit: int) -> bool:
    """Whether the guard forks: some limit is on, and we are not its child already."""
    return (time_limit > 0 or memory_limit > 0) and not _in_child and hasattr(os, "fork")


def address_space() -> int:
    """This process's current virtual memory size in bytes (Linux /proc; 0 if unknown)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def run(task: Callable[[], object], time_limit: float, memory_limit: int) -> tuple[str, Any, str]:
    """(outcome, amount, note): ``("ok", task(), "")`` computed in a child under the
    limits, or ``("time", cpu_seconds, note)``, ``("memory", peak_rss_bytes, "")``,
    ``("died", peak_rss_bytes, description)``."""
    base = address_space()
    parent = os.getpid()
    result_r, result_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        _child(task, time_limit, memory_limit, base, result_r, result_w, err_r, err_w, parent)
    os.close(result_w)
    os.close(err_w)
    wall = min(WALL_FACTOR * time_limit + WALL_SLACK, MAX_WALL) if time_limit > 0 else None
    restore = _kill_child_on_sigterm(pid)
    try:
        payload, stderr, timed_out = _collect(result_r, err_r, wall)
    except BaseException:  # interrupted (SIGINT, a host's handler): the child goes with us
        _kill_and_reap(pid)
        raise
    finally:
        restore()
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss * 1024
    if timed_out:
        return "time", cpu, f"wall clock {wall:.0f} s"
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and payload:
        try:
            return "ok", pickle.loads(payload), ""
        except Exception as exc:  # noqa: BLE001 - a truncated payload is a death, reported below
            stderr += f" (unreadable result: {type(exc).__name__})".encode()
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    if sig == getattr(signal, "SIGXCPU", -1) or (time_limit > 0 and cpu >= time_limit):
        return "time", cpu, ""
    text = stderr.decode("utf-8", "replace")
    if memory_limit > 0 and ("MemoryError" in text or "memory" in text.lower() or "alloc" in text.lower()):
        return "memory", peak, ""
    how = f"killed by signal {sig}" if sig else f"exit status {os.WEXITSTATUS(status) if os.WIFEXITED(status) else '?'}"
    return "died", peak, f"{how}; {text.strip()[-300:]}"


def _kill_and_reap(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


def _kill_child_on_sigterm(pid: int) -> Callable[[], None]:
    """While the parent waits: a SIGTERM with the default action first kills the child,
    then terminates the parent by the same signal.  Returns the function restoring the
    previous action (a no-op off the main thread or under a host's own handler)."""
    try:  # signal.signal raises ValueError off the main thread: then PR_SET_PDEATHSIG alone
        if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
            return lambda: None

        def on_term(signum: int, frame: object) -> None:
            _kill_and_reap(pid)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)

        signal.signal(signal.SIGTERM, on_term)
    except (ValueError, OSError):
        return lambda: None

    def restore() -> None:
        try:
            if signal.getsignal(signal.SIGTERM) is on_term:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
        except (ValueError, OSError):
            pass

    return restore


def _die_with_parent(parent: int) -> None:
    """In the child: SIGKILL when the front end dies (Linux), and exit now if it already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


def _collect(result_r: int, err_r: int, wall: float | None) -> tuple[bytes, bytes, bool]:
    """Read the child's result and standard error until both close, or the deadline."""
    chunks: dict[int, list[bytes]] = {result_r: [], err_r: []}
    sizes = {result_r: 0, err_r: 0}
    open_fds = [result_r, err_r]
    deadline = None if wall is None else time.monotonic() + wall
    timed_out = False
    while open_fds:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select(open_fds, [], [], left)
        for fd in ready:
            data = os.read(fd, 1 << 20)
            if not data:
                open_fds.remove(fd)
            elif fd == result_r or sizes[fd] < STDERR_BYTES:
                chunks[fd].append(data)
                sizes[fd] += len(data)
    os.close(result_r)
    os.close(err_r)
    return b"".join(chunks[result_r]), b"".join(chunks[err_r]), timed_out


def _lower(which: int, soft: int, hard: int) -> None:
    """Set a limit, never above a hard limit the environment already imposes."""
    _, current = resource.getrlimit(which)
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(which, (soft, hard))


def _child(task: Callable[[], object], time_limit: float, memory_limit: int, base: int, result_r: int, result_w: int, err_r: int, err_w: int, parent: int) -> NoReturn:
    global _in_child
    code = 1
    try:
        _in_child = True
        _die_with_parent(parent)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.close(result_r)
        os.close(err_r)
        os.dup2(err_w, 2)
        handler = sys.modules.get("faulthandler")  # a host's crash dumper writes past our stderr
        if handler is not None:
            handler.disable()
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if time_limit > 0:
            soft = max(1, int(-(-time_limit // 1)))
            _lower(resource.RLIMIT_CPU, soft, soft + 1)
        if memory_limit > 0:
            top = min(base + memory_limit, MAX_ADDRESS)
            _lower(resource.RLIMIT_AS, top, top)
        payload = pickle.dumps(task(), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(payload)
        while view:
            view = view[os.write(result_w, view[: 1 << 20]):]
        code = 0
    except MemoryError:
        os.write(2, b"MemoryError\n")
    except BaseException as exc:  # noqa: BLE001 - reported to the parent as a death
        try:
            os.write(2, f"{type(exc).__name__}: {str(exc)[:300]}\n".encode("utf-8", "replace"))
        except BaseException:  # noqa: BLE001
            pass
    finally:
        os._exit(code)
