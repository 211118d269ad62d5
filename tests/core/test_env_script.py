"""scripts/_env.sh's CaDiCaL step, run on a copy beside a stub .venv with a fake `id` (root)
and a fake apt-get that fails: the scripts go on (the tests that need the solver skip),
apt-get runs without a terminal, and a failed attempt is not repeated on every run."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _sandbox(tmp_path: Path) -> tuple[Path, dict]:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "_env.sh", tmp_path / "scripts" / "_env.sh")
    (tmp_path / "pyproject.toml").write_text("")
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\nexit 0\n")
    (venv / "python").chmod(0o755)
    os.utime(tmp_path / "pyproject.toml", (1, 1))
    (tmp_path / ".venv" / ".kernelbounds-installed").touch()
    bin_ = tmp_path / "bin"  # only these commands: no cadical
    bin_.mkdir()
    for tool in ("dirname", "touch", "cat", "rm"):
        os.symlink(shutil.which(tool), bin_ / tool)
    (bin_ / "id").write_text("#!/bin/sh\necho 0\n")
    calls = tmp_path / "apt-calls"
    (bin_ / "apt-get").write_text(f'#!/bin/sh\necho "$* frontend=$DEBIAN_FRONTEND" >> {calls}\nexit 100\n')
    for f in ("id", "apt-get"):
        (bin_ / f).chmod(0o755)
    return calls, {"PATH": str(bin_), "HOME": str(tmp_path)}


def _run(tmp_path: Path, env: dict) -> subprocess.CompletedProcess:
    bash = shutil.which("bash")
    return subprocess.run([bash, "-c", "source scripts/_env.sh && echo sourced"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def test_a_failed_cadical_install_is_reported_once_and_not_retried(tmp_path):
    calls, env = _sandbox(tmp_path)
    first = _run(tmp_path, env)
    assert first.returncode == 0 and first.stdout == "sourced\n"
    assert "cadical did not install" in first.stderr and (tmp_path / ".venv" / "install-cadical.log").exists()
    tried = calls.read_text().splitlines()
    assert tried and tried[0].startswith("install -y cadical") and all(line.endswith("frontend=noninteractive") for line in tried)
    second = _run(tmp_path, env)
    assert second.returncode == 0 and second.stdout == "sourced\n"
    assert calls.read_text().splitlines() == tried  # not tried again
    assert "cadical" in second.stderr  # still says why the solver's tests skip
