"""The process pool's workers die with the process that started them (kernelbounds/parallel.py):
a SIGTERM or SIGKILL to a `--jobs 2` run leaves no orphan computing on."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# two long items (a few seconds each at least): the workers are busy when the signal comes
SCRIPT = """
import sys
from kernelbounds.parallel import pmap

def spin(x):
    total = 0
    for i in range(10**10):
        total += i
    return total

if __name__ == "__main__":
    print("started", flush=True)
    pmap(spin, [1, 2], jobs=2)
"""


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _workers_after_signal(argv: list[str], sig: int, workers: int = 2) -> list[int]:
    """Start argv, wait until it has `workers` children, send sig; return the children
    still alive 5 s after the front end is gone (killing them, so nothing is left)."""
    front = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(children) < workers and time.monotonic() < deadline and front.poll() is None:
            time.sleep(0.1)
            children = _children(front.pid)
        assert len(children) >= workers, "the front end never started its pool"
        time.sleep(1.0)
        front.send_signal(sig)
        front.wait(timeout=30)
        deadline = time.monotonic() + 5
        while any(_alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        return [c for c in children if _alive(c)]
    finally:
        if front.poll() is None:
            front.kill()
            front.wait()
        for c in children:
            if _alive(c):
                try:
                    os.kill(c, signal.SIGKILL)
                except OSError:
                    pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_pmap_workers_die_with_their_parent(tmp_path, sig):
    script = tmp_path / "spin.py"
    script.write_text(SCRIPT)
    assert _workers_after_signal([sys.executable, str(script)], sig) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_table_jobs_2_leaves_no_orphan_after_sigterm():
    """The command of the report: table above m = 64 computes its cells on the pool."""
    argv = [sys.executable, "-m", "kernelbounds", "table", "--m", "65..66", "--n", "3", "--jobs", "2"]
    assert _workers_after_signal(argv, signal.SIGTERM) == []
