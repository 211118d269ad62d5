"""The generated plots (kernelbounds.plots): the committed docs plots are current by their
data, `docs-tables --check` fails when the plotted numbers change, the figure has one panel
per n with the exact cells marked, and the marker's parameters read back."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import shutil
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.reports import plots, report
from kernelbounds.hub.answer import KERNELS, VARIANTS
from kernelbounds.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _docs_plots() -> dict[str, tuple[Path, plots.Spec]]:
    out = {}
    for md in plots.docs_files(ROOT):
        for _match, spec in plots.specs(md.read_text(encoding="utf-8")):
            out[spec.file] = (md, spec)
    return out


def test_the_committed_plots_are_current_by_their_data():
    """Every plot marker's sidecar is the hub's answers now, and its PNG carries the
    sidecar's sha256: what `docs-tables --check` asserts (run `docs-tables` to refresh)."""
    found = _docs_plots()
    assert {"bounds.png", "bounds-n3.png"} <= set(found)
    for md, spec in found.values():
        png = md.parent / spec.file
        text = plots.data(spec, plots.rows_of(spec, jobs=2))
        assert plots.stale(png, text) is None, f"{png} is stale: run `kernelbounds docs-tables`"
        doc = json.loads(text)
        assert [tuple(r[:2]) for r in doc["rows"]] == [(m, n) for m in spec.ms for n in spec.ns]  # the marker's whole range
        assert all(lo <= up for _m, _n, lo, up, _u, _e in doc["rows"])


def test_the_bounds_plots_cover_the_stored_range():
    found = _docs_plots()
    for name in ("bounds.png", "bounds-n3.png"):
        spec = found[name][1]
        assert spec.ms == range(2, 257) and spec.log2 and spec.variant == "position-independent" and spec.kernel == "nonnegative"
    assert found["bounds.png"][1].ns == tuple(range(3, 9)) and found["bounds-n3.png"][1].ns == (3,)


def _copy_docs(tmp_path: Path, name: str) -> Path:
    """A root with docs/ holding the markdown file that embeds the committed plot `name`,
    the plot and its sidecar: current, as committed."""
    md, spec = _docs_plots()[name]
    (tmp_path / "docs").mkdir()
    for f in (md, md.parent / spec.file, md.parent / (spec.file + ".json")):
        shutil.copy(f, tmp_path / "docs" / f.name)
    return tmp_path / "docs"


def _docs_tables(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["docs-tables", "--jobs", "1", *argv])
    return code, out.getvalue()


def test_check_fails_naming_the_plot_when_an_answer_changes_and_rendering_redraws_it(tmp_path, monkeypatch):
    docs = _copy_docs(tmp_path, "bounds-n3.png")
    assert _docs_tables("--check", "--root", str(tmp_path)) == (0, "")
    real = plots.rows_of

    def moved(spec, jobs=1):  # the hub now answers a higher lower bound at m = 20 (as after a new certificate)
        return [dataclasses.replace(r, lower=r.lower + 1) if r.m == 20 else r for r in real(spec, jobs)]

    monkeypatch.setattr(plots, "rows_of", moved)
    code, out = _docs_tables("--check", "--root", str(tmp_path))
    assert code == 1 and out == f"stale: {docs / 'bounds-n3.png'} (its data bounds-n3.png.json differs from the hub's answers (or from the drawing's style))\n"
    code, out = _docs_tables("--root", str(tmp_path))
    assert code == 0 and out.startswith(f"rendered: {docs / 'bounds-n3.png'}")
    assert _docs_tables("--check", "--root", str(tmp_path)) == (0, "")
    rows = json.loads((docs / "bounds-n3.png.json").read_text())["rows"]
    assert [r[2] for r in rows if r[0] == 20] == [x.lower for x in moved(_docs_plots()["bounds-n3.png"][1]) if x.m == 20]
    monkeypatch.setattr(plots, "rows_of", real)
    assert _docs_tables("--check", "--root", str(tmp_path))[0] == 1  # back to the committed answers: stale again


def test_check_fails_on_an_edited_sidecar_and_on_an_image_drawn_from_other_data(tmp_path):
    docs = _copy_docs(tmp_path, "bounds-n3.png")
    side = docs / "bounds-n3.png.json"
    text = side.read_text()
    side.write_text(text.replace("[64,3,", "[64,3,1", 1))
    code, out = _docs_tables("--check", "--root", str(tmp_path))
    assert code == 1 and "bounds-n3.png (its data bounds-n3.png.json differs" in out
    side.write_text(text)
    shutil.copy(ROOT / "docs" / "bounds.png", docs / "bounds-n3.png")  # a current image of other data
    code, out = _docs_tables("--check", "--root", str(tmp_path))
    assert code == 1 and "bounds-n3.png (the image was not drawn from bounds-n3.png.json)" in out
    (docs / "bounds-n3.png").unlink()
    code, out = _docs_tables("--check", "--root", str(tmp_path))
    assert code == 1 and "bounds-n3.png (no image)" in out


def test_check_needs_no_matplotlib_and_drawing_without_it_is_one_line(tmp_path):
    docs = _copy_docs(tmp_path, "bounds-n3.png")
    block = "import sys; sys.modules['matplotlib'] = None; from kernelbounds.cli import main; sys.exit(main(sys.argv[1:]))"
    r = subprocess.run([sys.executable, "-c", block, "docs-tables", "--check", "--jobs", "1", "--root", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    (docs / "bounds-n3.png.json").unlink()
    r = subprocess.run([sys.executable, "-c", block, "docs-tables", "--jobs", "1", "--root", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "needs matplotlib" in r.stderr and "Traceback" not in r.stderr
    assert not (docs / "bounds-n3.png.json").exists()


def test_a_malformed_plot_marker_is_a_one_line_usage_error(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "p.md").write_text("<!-- kernelbounds plot p.png --m 2..300 --n 3 -->\n<!-- end of generated plot -->\n")
    r = subprocess.run([sys.executable, "-m", "kernelbounds", "docs-tables", "--check", "--root", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "p.md" in r.stderr and "--m must be A..B" in r.stderr


def test_the_figure_has_one_panel_per_n_with_the_gap_and_the_exact_cells():
    ns = (3, 5, 8)
    rows = report.table(range(2, 21), ns)
    fig = plots.figure(rows)
    panels = [ax for ax in fig.axes if hasattr(ax, "kernelbounds_n")]
    assert [ax.kernelbounds_n for ax in panels] == list(ns)
    assert fig.axes == panels and all(len(ax.child_axes) == 1 for ax in panels)  # the panels, each with its zoom of the first m
    for ax in panels:
        own = [r for r in rows if r.n == ax.kernelbounds_n]
        assert len(ax.collections) == 1  # one gap band per panel: nothing to blend with
        exact = [line for line in ax.lines if line.get_marker() == "D"]
        assert len(exact) == 1 and list(exact[0].get_xdata()) == [r.m for r in own if r.exact]
        assert list(exact[0].get_ydata()) == pytest.approx([math.log2(r.lower) for r in own if r.exact])
        assert any(r.exact for r in own) and not all(r.exact for r in own)
    labels = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert len(fig.legends) == 1 and not any(ax.get_legend() for ax in fig.axes)  # one legend, outside the panels
    assert any("exact" in x for x in labels) and any("gap" in x for x in labels)
    ticks = [t.get_text() for t in panels[0].get_yticklabels() if t.get_text()]
    assert ticks and all(t.startswith("$2^{") for t in ticks)


_files = st.from_regex(r"[a-z][a-z0-9-]{0,8}(/[a-z][a-z0-9-]{0,8})?\.png", fullmatch=True)


@st.composite
def _specs(draw):
    a = draw(st.integers(1, 256))
    b = draw(st.integers(a, 256))
    ns = tuple(sorted(draw(st.sets(st.integers(1, 64), min_size=1, max_size=8))))
    variant = draw(st.sampled_from(VARIANTS))
    kernel = draw(st.sampled_from([k for k in KERNELS if (k, variant) != ("signed-any-denominator", "position-dependent")]))
    return plots.Spec(draw(_files), range(a, b + 1), ns, variant, kernel, draw(st.booleans()))


@given(_specs())
def test_a_marker_reads_back_as_written(spec):
    assert plots.parse_spec(spec.text()) == spec
    text = f"x\n<!-- kernelbounds plot {spec.text()} -->\nold\n<!-- end of generated plot -->\n"
    assert [s for _m, s in plots.specs(text)] == [spec]
    assert plots.render_text(text) == f"x\n<!-- kernelbounds plot {spec.text()} -->\n{plots.block(spec)}<!-- end of generated plot -->\n"


def test_table_plot_without_matplotlib_is_one_line(tmp_path):
    block = "import sys; sys.modules['matplotlib'] = None; from kernelbounds.cli import main; sys.exit(main(sys.argv[1:]))"
    r = subprocess.run([sys.executable, "-c", block, "table", "--m", "4..5", "--n", "3..3", "--plot", str(tmp_path / "p.png")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "needs matplotlib" in r.stderr and not (tmp_path / "p.png").exists()
    assert r.stdout == "" and "pip install 'kernelbounds[plots]'" in r.stderr  # refused before the table is computed or printed


def test_every_png_in_docs_names_the_data_it_was_drawn_from_and_its_sha256():
    pngs = sorted((ROOT / "docs").glob("*.png"))
    assert {p.name for p in pngs} >= {"bounds.png", "bounds-n3.png", "experiments.png"}
    assert [(p.name, plots.drawn_from(p)) for p in pngs] == [(p.name, None) for p in pngs]
    assert plots.png_text(ROOT / "docs" / "experiments.png")[plots.SOURCE_KEY] == "experiments.json"


def test_a_png_another_command_draws_is_named_when_its_data_changes_and_never_redrawn(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("experiments.png", "experiments.json"):
        shutil.copy(ROOT / "docs" / name, docs / name)
    assert _docs_tables("--check", "--root", str(tmp_path)) == (0, "")
    with open(docs / "experiments.json", "a") as fh:
        fh.write(" ")
    image = (docs / "experiments.png").read_bytes()
    for argv in (("--check",), ()):
        code, out = _docs_tables(*argv, "--root", str(tmp_path))
        assert code == 1 and out.startswith(f"stale: {docs / 'experiments.png'} (it was not drawn from the current experiments.json")
    assert (docs / "experiments.png").read_bytes() == image
    from kernelbounds.reports.report import table

    plots.save(plots.figure(table(range(4, 6), (3,))), str(docs / "other.png"))  # a PNG that names no data
    code, out = _docs_tables("--check", "--root", str(tmp_path))
    assert code == 1 and f"stale: {docs / 'other.png'} (no plot marker draws it and it names no data file" in out


def test_the_figure_draws_2_to_the_m_and_no_curve_that_lies_on_another():
    """The 2^m reference (U2) is drawn in every log2 panel; the nonnegative-features curve
    and its legend entry are left out where they equal the any-features curve; the title
    names the model class."""
    rows = report.table(range(2, 20), range(7, 9))
    same = [dataclasses.replace(r, upper_nonnegative=r.upper) for r in rows]
    for data, drawn in ((rows, True), (same, False)):
        fig = plots.figure(data, title=plots.title(None, "causal", "signed"))
        labels = [t.get_text() for t in fig.legends[0].get_texts()]
        assert ("upper bound (nonnegative features)" in labels) == drawn
        assert fig._suptitle.get_text().endswith("signed kernel, causal heads, Min-IP")
        for ax in (a for a in fig.axes if getattr(a, "kernelbounds_n", None)):
            own = sorted((r for r in data if r.n == ax.kernelbounds_n), key=lambda r: r.m)
            ys = [list(line.get_ydata()) for line in ax.get_lines()]
            assert [float(r.m) for r in own] in ys  # log2 of 2^m
            upn = [math.log2(r.upper_nonnegative) for r in own]
            assert ys.count(upn) == 1  # drawn once: its own curve, or the any-features curve it equals
            assert (upn == [math.log2(r.upper) for r in own]) == (not drawn or all(r.upper_nonnegative == r.upper for r in own))
