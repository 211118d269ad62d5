"""The process pool's workers die with the process that started them (kernelbounds/parallel.py):
a SIGTERM or SIGKILL to a `--jobs 2` run leaves no orphan computing on."""

import signal
import sys
from pathlib import Path

import pytest
from helpers import survivors_of_signal

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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_pmap_workers_die_with_their_parent(tmp_path, sig):
    script = tmp_path / "spin.py"
    script.write_text(SCRIPT)
    assert survivors_of_signal([sys.executable, str(script)], sig, count=2, start=120, pause=1.0, settle=5, cwd=ROOT) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_checking_the_shipped_set_on_2_jobs_leaves_no_orphan_after_sigterm():
    """A command on the pool (every cell of `table` is a lookup now): checking the shipped
    certificates on two worker processes, minutes of work, stopped by SIGTERM."""
    argv = [sys.executable, "-m", "kernelbounds", "certificates", "--check", "--jobs", "2"]
    assert survivors_of_signal(argv, signal.SIGTERM, count=2, start=120, pause=1.0, settle=5, cwd=ROOT) == []
