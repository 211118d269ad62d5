"""Plots, progress bars, stdin/stdout and refused options."""

import io
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from kernelbounds import progress
from kernelbounds.reports import plots, report
from kernelbounds.reports.report import Row

ROOT = Path(__file__).resolve().parents[2]
ROWS = [Row(m, n, max(1, m // 3), 2**m if m > 5 else 2 ** (m - 1), 2**m, False, "codes", "U2 tensor", "U2 tensor", m, m, m, n, n, n, None, None, None, m) for m in range(4, 9) for n in (3, 4)]


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, input=stdin, cwd=ROOT)


@pytest.mark.parametrize("name,magic", [("p.png", b"\x89PNG"), ("p.svg", b"<?xml"), ("p.pdf", b"%PDF")])
def test_plot_format_follows_the_extension(tmp_path, name, magic):
    plots.plot(ROWS, str(tmp_path / name))
    assert (tmp_path / name).read_bytes().startswith(magic)


def test_plot_dpi_sets_the_png_size(tmp_path):
    sizes = []
    for dpi in (50, 100):
        plots.plot(ROWS, str(tmp_path / f"p{dpi}.png"), dpi=dpi)
        sizes.append(struct.unpack(">II", (tmp_path / f"p{dpi}.png").read_bytes()[16:24]))
    assert sizes[1][0] == 2 * sizes[0][0]


def test_plot_refuses_an_unknown_extension_before_any_work(tmp_path):
    r = run("table", "--m", "4..5", "--n", "3..3", "--plot", str(tmp_path / "p.gif"))
    assert r.returncode == 2 and b"png, .svg or .pdf" in r.stderr and not (tmp_path / "p.gif").exists()


def test_plot_is_one_panel_per_n_with_log2_ticks_integer_m_and_one_legend_outside(monkeypatch, tmp_path):
    captured = {}
    real = plots.save
    monkeypatch.setattr(plots, "save", lambda fig, *a, **k: (captured.setdefault("fig", fig), real(fig, *a, **k)))
    plots.plot(ROWS, str(tmp_path / "p.svg"))
    fig = captured["fig"]
    assert [ax.kernelbounds_n for ax in fig.axes] == [3, 4]
    for ax in fig.axes:
        assert all(float(t).is_integer() for t in ax.get_xticks())
        assert all(t.get_text().startswith("$2^{") for t in ax.get_yticklabels() if t.get_text())
        assert ax.get_legend() is None and len(ax.collections) == 1  # the gap, one band per panel
    assert [t.get_text() for t in fig.axes[0].get_yticklabels() if t.get_text()]  # the shared y axis is labelled on the left
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(fig.legends) == 1 and any("gap" in x for x in labels) and any("exact" in x for x in labels)


def test_table_plot_to_stdout_is_png():
    r = run("table", "--m", "4..5", "--n", "3..3", "--plot", "-")
    assert r.returncode == 0 and r.stdout.startswith(b"\x89PNG")


def test_check_reads_standard_input():
    r = run("check", "-", stdin=(ROOT / "certificates" / "rank-tensor-m08.json").read_bytes())
    assert r.returncode == 0 and b"VALID -" in r.stdout


def test_output_dash_writes_the_certificate_to_stdout():
    import json

    r = run("transcript", "--q", "2", "--s", "1", "-o", "-")
    assert r.returncode == 0 and json.loads(r.stdout)["kind"] == "transcript"


@pytest.mark.parametrize("args", [["rank", "--kernel", "inner", "--m", "4", "--c", "1/2"], ["rank", "--kernel", "tensor", "--m", "4", "--h", "1,2,3,4,5"]])
def test_options_that_would_be_ignored_are_refused(args):
    r = run(*args)
    assert r.returncode == 2 and b"does not use it" in r.stderr or b"use it with --kernel level" in r.stderr


def test_progress_bars_only_on_a_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert isinstance(progress.bar(10, "x"), progress._Silent)

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Tty())
    b = progress.bar(10, "x")
    b.update(10)
    b.close()
    assert type(b).__name__ == "tqdm" and "x:" in sys.stderr.getvalue()
    assert not hasattr(report, "Progress")  # the hand-written class is gone


def test_license_is_shipped():
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["license"] == "MIT" and meta["license-files"] == ["LICENSE"] and "MIT License" in (ROOT / "LICENSE").read_text()
    assert meta["entry-points"]["pytest11"]["kernelbounds"] == "kernelbounds.pytest_plugin"
