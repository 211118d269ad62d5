"""Ctrl-C (SIGINT to the whole process group, or to the front end alone) and SIGTERM stop
the long commands within 2 s: the process pool's queued items are cancelled and its
running workers ended (kernelbounds.parallel.process_pool), the checker's guarded child
killed; exit 130 (interrupted) or 143 (terminated), one line on stderr, no traceback, and
no process of the command's group left (docs/cli.md, "Exit codes")."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import group

ROOT = Path(__file__).resolve().parents[2]
STOP_SECONDS = 2.0
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

TABLE = ["table", "--m", "200..256", "--n", "3..64", "--jobs", "2"]  # cells beyond the stored grid: minutes on the pool
CHECK = ["certificates", "--check", "--jobs", "2"]  # the shipped set: minutes


def stopped(args: list[str], sig: int, to_group: bool, processes: int, cwd: Path = ROOT) -> tuple[int, float, str, list[int]]:
    """Start the command in its own process group, wait until the group has `processes`
    live processes and they worked a second, send sig (to the group: a terminal's Ctrl-C);
    (exit code, seconds from the signal to the exit, stderr, processes of the group left)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERNELBOUNDS_CACHE="off")
    front = subprocess.Popen([sys.executable, "-m", "kernelbounds", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(group(front.pid)) < processes and time.monotonic() < deadline and front.poll() is None:
            time.sleep(0.05)
        assert len(group(front.pid)) >= processes, "the command never started its workers"
        time.sleep(1.0)
        sent = time.monotonic()
        (os.killpg if to_group else os.kill)(front.pid, sig)
        try:
            _, err = front.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 30 s after {signal.Signals(sig).name}")
        seconds = time.monotonic() - sent
        settle = time.monotonic() + 1.0
        while group(front.pid) and time.monotonic() < settle:
            time.sleep(0.05)
        return front.returncode, seconds, err.decode(), group(front.pid)
    finally:
        for pid in group(front.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if front.poll() is None:
            front.kill()
            front.wait()


def assert_stopped(outcome, code: int, word: str) -> None:
    returncode, seconds, err, left = outcome
    assert returncode == code, err
    assert seconds <= STOP_SECONDS, f"{seconds:.1f} s to stop"
    assert err.splitlines() == [f"kernelbounds: {word}"]
    assert left == []


@pytest.mark.parametrize("to_group", [True, False], ids=["ctrl-c", "sigint-to-front"])
def test_table_on_2_jobs_stops_at_sigint(to_group):
    assert_stopped(stopped(TABLE, signal.SIGINT, to_group, 3), 130, "interrupted")


def test_table_on_2_jobs_stops_at_sigterm():
    assert_stopped(stopped(TABLE, signal.SIGTERM, False, 3), 143, "terminated")


@pytest.mark.parametrize(("sig", "code", "word"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_certificates_check_on_2_jobs_stops(sig, code, word):
    assert_stopped(stopped(CHECK, sig, sig == signal.SIGINT, 3), code, word)


def test_certificates_check_on_1_job_stops_at_ctrl_c():
    """One process and the checker's guarded child (checker/guard.py)."""
    assert_stopped(stopped(["certificates", "--check", "--jobs", "1"], signal.SIGINT, True, 2), 130, "interrupted")


def test_certificates_verify_on_2_jobs_stops_at_sigint_to_the_front_alone():
    """--verify checks the set first (minutes on the pool), then rebuilds the stored rows on
    the same pool code (parallel.pmap, as `table`): the workers keep running unless the front
    end stops them."""
    assert_stopped(stopped(["certificates", "--verify", "--jobs", "2"], signal.SIGINT, False, 3), 130, "interrupted")
