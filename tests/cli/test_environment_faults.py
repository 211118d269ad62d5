"""The user's or the environment's fault is never exit 4 "internal error": one line and a
documented code (docs/cli.md): an over-long KERNELBOUNDS_CERTIFICATES, standard input
closed, an absurd --limit, standard output on a full device, a SAT solver whose proof does
not show its UNSAT answer."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args, env=None, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, close_stdin=False, timeout=300):
    full = dict(os.environ, **(env or {}))
    preexec = (lambda: os.close(0)) if close_stdin else None
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], stdin=None if close_stdin else stdin, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, cwd=ROOT, env=full, preexec_fn=preexec, timeout=timeout)


def one_line(r) -> str:
    assert r.stderr.count("\n") == 1, r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    return r.stderr


def test_an_over_long_certificates_variable_is_one_line_and_exit_2():
    r = run("bound", "--m", "6", "--n", "3", env={"KERNELBOUNDS_CERTIFICATES": "a" * 5000})
    assert r.returncode == 2 and "File name too long" in one_line(r)
    assert len(r.stderr) < 400  # the 5000-character name is shortened


@pytest.mark.parametrize("front", [["-m", "kernelbounds", "check"], ["-m", "kernelbounds.checker"]])
def test_check_stdin_closed_is_malformed_not_internal(front):
    r = subprocess.run([sys.executable, *front, "-"], capture_output=True, text=True, cwd=ROOT, preexec_fn=lambda: os.close(0), timeout=120)
    assert r.returncode == 2 and "standard input" in r.stdout + r.stderr and "internal error" not in r.stdout + r.stderr.lower()


@pytest.mark.parametrize("command", [["check", "-"], ["bound", "--m", "6", "--n", "3"]])
def test_an_overflowing_limit_is_one_line_and_exit_2(command):
    args = [*command[:1], "--limit", "max_file_bytes=99999999999999999999", *command[1:]]
    r = run(*args, stdin=subprocess.DEVNULL)
    if r.returncode != 2 and "--limit" in r.stderr and "unrecognized" in r.stderr:
        pytest.skip(f"{command[0]} takes no --limit")
    assert r.returncode == 2 and "max_file_bytes" in one_line(r)


@pytest.mark.parametrize("command", [["bound", "--m", "6", "--n", "3"], ["table", "--m", "6..9", "--n", "3..4"], ["construct", "tensor", "--m", "2", "--n", "3"]])
def test_standard_output_on_a_full_device_is_one_line_and_exit_2(command):
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    with open("/dev/full", "w") as full:
        r = run(*command, stdout=full)
    assert r.returncode == 2 and "cannot write standard output: No space left on device" in one_line(r)


FAKE_SOLVER = """#!/bin/sh
if [ "$1" = "--version" ]; then echo 9.9.9; exit 0; fi
for last; do :; done
printf '%s' "{proof}" > "$last"
exit 20
"""


@pytest.mark.parametrize("proof", ["", "1 2 x 0\\n", "0\\n", "1 2\\n", "d 1 0\\n"])
def test_a_lying_solver_gives_its_own_exit_code_and_writes_nothing(tmp_path, proof):
    """A 'cadical' that answers UNSAT (exit 20) with an empty, bogus, non-RUP or truncated
    proof: one line "the solver's proof is not valid", exit 6, no file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "cadical"
    fake.write_text(FAKE_SOLVER.replace("{proof}", proof))
    fake.chmod(0o755)
    out = tmp_path / "r.json"
    r = run("refute", "--m", "5", "--rank", "2", "--fresh", "-o", str(out), env={"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert r.returncode == 6, (r.returncode, r.stderr)
    assert "the solver's proof is not valid" in one_line(r)
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["bin"]
