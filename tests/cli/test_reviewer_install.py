"""A checker-only install (docs/soundness.md, "A reviewer's install": python-flint and the
wheel with --no-deps): `kernelbounds check` works without the generators' dependencies, and
a command that needs one says so in one line, exit 2.  Each CLI run is a subprocess in which
those modules cannot be imported (sys.modules[name] = None makes `import name` fail, as in an
environment without them); scripts/wheel-check runs the documented commands in a real one."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kernelbounds.cli import DEPENDENCIES, EXTRAS

ROOT = Path(__file__).resolve().parents[2]
GENERATORS = sorted((set(DEPENDENCIES) | set(EXTRAS)) - {"flint"})  # the checker's one dependency stays
LAUNCH = """import sys
for name in {blocked!r}:
    sys.modules[name] = None
from kernelbounds.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:  # --help
    code = exc.code
print(json.dumps(sorted(m for m in {watched!r} if sys.modules.get(m) is not None)), file=sys.stderr)
sys.exit(code)
"""


def run_cli(args, blocked=GENERATORS, cwd=ROOT):
    """Exit code, stdout and stderr of `kernelbounds ARGS` with the modules `blocked` made
    unimportable; stderr's last line lists the generators' modules the run imported."""
    code = "import json\n" + LAUNCH.format(blocked=list(blocked), watched=GENERATORS)
    r = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "KERNELBOUNDS_CACHE": "off"})
    *err, imported = r.stderr.splitlines() or [""]
    return r.returncode, r.stdout, err, json.loads(imported) if imported.startswith("[") else None


def test_check_runs_without_the_generators_dependencies(tmp_path):
    files = ["lower-position-independent-m24-n3.json", "refutation-causal-m05-n3-r2.json", "explicit-head-m08-n3-r7.json", "upper-any-m256-n3.json"]
    code, out, err, imported = run_cli(["check", *(str(ROOT / "certificates" / f) for f in files)])
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()] == ["VALID"] * len(files)
    assert imported == [] and not any("Traceback" in line for line in err)


def test_check_imports_no_generator_dependency_even_where_installed():
    code, out, err, imported = run_cli(["check", "--json", str(ROOT / "certificates" / "witness-m24-n3-r8.json")], blocked=[])
    assert code == 0 and json.loads(out)["ok"], err
    assert imported == [], f"`kernelbounds check` imported {imported}"


def test_a_shipped_certificate_by_name_is_checked_without_them(tmp_path):
    code, out, err, _ = run_cli(["check", "witness-m24-n3-r8.json"], cwd=tmp_path)
    assert code == 0 and out.startswith("VALID "), err


@pytest.mark.parametrize("args", [["bound", "--m", "12", "--n", "3"], ["evaluate", "--family", "witness-m24-n3-r8.json", "--list-tokens"],
                                  ["rank", "--kernel", "tensor", "--m", "4"], ["rank-one", "--m", "4", "--n", "3"], ["refute", "--m", "6", "--n", "3", "--rank", "3"]])
def test_a_generators_command_says_what_it_needs_in_one_line(args, tmp_path):
    code, out, err, _ = run_cli(args, cwd=tmp_path)
    assert code == 2 and out == ""
    assert err == [f"kernelbounds: error: `kernelbounds {args[0]}` needs numpy, which is not installed (a checker-only install: "
                   "`kernelbounds check` works; install kernelbounds with its dependencies for the other commands)"]


@pytest.mark.parametrize("missing", GENERATORS)
def test_each_dependency_is_named_when_it_is_the_one_missing(missing, tmp_path):
    # `bound` at an m where the answer is built (not only read) needs the generators; whichever
    # dependency is absent first is named, never an internal error
    code, out, err, _ = run_cli(["bound", "--m", "12", "--n", "3"], blocked=[missing], cwd=tmp_path)
    assert code in (0, 2) and not any("Traceback" in line or "internal error" in line for line in err)
    if code == 2:
        assert len(err) == 1 and f"needs {DEPENDENCIES.get(missing) or EXTRAS[missing][0]}," in err[0]


def test_every_commands_help_needs_no_generator():
    code, out, err, _ = run_cli([])
    assert code == 0 and "commands:" in out
    names = [line.split()[0] for line in out.split("commands:", 1)[1].splitlines()[1:] if line.startswith("    ") and not line.startswith("     ")]
    assert "check" in names and "evaluate" in names
    for name in names:
        code, out, err, imported = run_cli([name, "--help"])
        assert code == 0 and "usage:" in out and imported == [], (name, err)


def _names(requirements: list[str]) -> list[str]:
    return sorted(d.split(">")[0].split("=")[0].split("<")[0].strip() for d in requirements)


def test_dependencies_are_the_declared_ones():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert _names(project["dependencies"]) == sorted(DEPENDENCIES.values())
    for distribution, extra in EXTRAS.values():
        assert _names(project["optional-dependencies"][extra]) == [distribution]
        assert distribution in _names(project["optional-dependencies"]["test"])  # the suite runs what needs it


def test_without_the_search_extra_the_answer_is_the_same():
    """OR-Tools (the extra `search`) only searches: the small CP-SAT codes the code search
    uses up to m = 10 are stored, so an install without it answers byte for byte alike (here
    at n = 10, beyond the stored grid, where the code search runs at query time)."""
    args = ["bound", "--m", "10", "--n", "10", "--json"]
    alone = run_cli(args, blocked=["ortools"], cwd=ROOT)
    full = run_cli(args, blocked=[], cwd=ROOT)
    assert alone[0] == full[0] == 0 and alone[1] == full[1] and '"code": "cpsat-w5-l3"' in alone[1]


def test_a_search_without_its_extra_says_which_in_one_line(tmp_path):
    code, out, err, _ = run_cli(["crossing", "--m", "4", "--n", "3", "-o", str(tmp_path / "c.json")], blocked=["ortools"], cwd=tmp_path)
    assert code == 2 and out == "" and not (tmp_path / "c.json").exists()
    assert err == ["kernelbounds: error: `kernelbounds crossing` needs ortools, which is not installed (the optional extra: pip install 'kernelbounds[search]')"]


def test_refutes_kernel_choices_are_the_generators():
    from kernelbounds.cli import refute
    from kernelbounds.lowerbounds import refutation

    assert refute.STATED_KERNELS == refutation.STATED_KERNELS


def test_the_documented_reviewer_install_installs_the_wheel_file():
    """docs/soundness.md's block, which scripts/wheel-check runs verbatim: python-flint and the
    wheel FILE without its dependencies (no package index has kernelbounds), then `check`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("documented_commands", ROOT / "scripts" / "documented-commands.py")
    documented = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(documented)
    lines = [documented.command(line) for line in documented.block_lines(ROOT / "docs" / "soundness.md", "**A reviewer's install.**")]
    installs = [line for line in lines if " install " in line]
    assert installs == ["rv/bin/pip install python-flint", "rv/bin/pip install --no-deps kernelbounds-*.whl"]
    assert any(line.startswith("rv/bin/kernelbounds check ") for line in lines)


def test_progress_on_a_terminal_without_tqdm(monkeypatch):
    """A checker-only install has no tqdm: a bar becomes the status line that counts items,
    the weighted bar draws nothing, and neither raises."""
    import io

    from kernelbounds import progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(sys, "stderr", Tty())
    with progress.bar(10, "check", "file") as b:
        b.update(3)
    assert isinstance(b, progress.status) and b.count == 3
    assert progress.pmap_weighted(abs, [-1, -2, 3], [1, 5, 2], jobs=1, desc="check") == [1, 2, 3]
