"""One machine-readable form: `bound --json`, `table --json`, `table --grid --json` and
kb.bound(...).to_json() carry the same fields and values (the closure in m in *_from_m, never
in a method string; integers exact at every size), each valid against its shipped schema;
the grid's cells are the hub's answers; the ceiling of L3/L4 is stated beside every answer."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st
from jsonschema import Draft202012Validator

import kernelbounds as kb
from kernelbounds import schemas
from kernelbounds.cli import main
from kernelbounds.lowerbounds.ceiling import ceiling
from kernelbounds.reports import grid, report

MS, NS = range(1, 257), range(3, 9)
ROW_FIELDS = tuple(report.COLUMNS)


def _validator(name: str) -> Draft202012Validator:
    schema = schemas.load(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _cli_lines(args: list[str], capsys) -> list[dict]:
    assert main(args) in (0, None)
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.fixture(scope="module")
def answers() -> dict:
    return {(m, n): kb.bound(m, n).to_json() for m in MS for n in NS}


def test_table_json_is_bound_json_field_by_field_over_the_whole_grid(answers, capsys):
    """Every line of `table --json --m 1..256 --n 3..8` is its cell's kb.bound(...).to_json()
    restricted to the row's fields, and both validate against their schemas."""
    rows, bounds = _validator("table-row"), _validator("bound")
    lines = _cli_lines(["table", "--m", "1..256", "--n", "3..8", "--json"], capsys)
    assert [(r["m"], r["n"]) for r in lines] == list(answers)
    for line in lines:
        want = answers[(line["m"], line["n"])]
        rows.validate(line)
        bounds.validate(json.loads(json.dumps(want)))
        assert line == {k: want[k] for k in line}, (line["m"], line["n"])
        for side in ("lower", "upper", "upper_nonnegative"):  # the row's fields are the sides' own
            s = want["sides"][side]
            assert (want[side], want[f"{side}_method"], want[f"{side}_from_m"], want[f"{side}_certificate"]) == (s["value"], s["method"], s["from_m"], s["certificate"])


@pytest.mark.parametrize("m, n, variant, kernel", [(1, 3, "position-independent", "nonnegative"), (24, 3, "position-independent", "nonnegative"), (48, 5, "causal", "signed"),
                                                   (64, 8, "position-independent", "nonnegative"), (65, 3, "position-dependent", "nonnegative"), (200, 6, "causal", "signed-any-denominator"),
                                                   (256, 8, "position-independent", "nonnegative"), (12, 2, "position-independent", "nonnegative")])
def test_bound_json_is_to_json_with_exact_integers(m, n, variant, kernel, capsys):
    cli = _cli_lines(["bound", "--m", str(m), "--n", str(n), "--variant", variant, "--kernel", kernel, "--json"], capsys)[0]
    _validator("bound").validate(cli)
    assert cli.pop("written") == []  # the command's own field: the files it wrote (none asked)
    assert cli == json.loads(json.dumps(kb.bound(m, n, variant, kernel=kernel).to_json()))
    assert all(type(cli[f]) is int for f in ("lower", "upper", "upper_nonnegative"))  # never a string, at any size
    assert cli["upper_nonnegative"] <= 2**m


def test_no_method_string_carries_the_closure(answers):
    """The restriction closure is a field: some cells use it, and their methods do not say so."""
    closed = [a for a in answers.values() if a["lower_from_m"] not in (None, a["m"])]
    assert closed and all("from m" not in a["lower_method"] for a in closed)
    assert all(a["lower_from_m"] is None or a["lower_from_m"] <= a["m"] for a in answers.values())
    assert all(a["upper_from_m"] >= a["m"] for a in answers.values())


def test_bound_json_lists_the_files_written_in_its_schema(tmp_path, capsys):
    out = tmp_path / "lower.json"
    cli = _cli_lines(["bound", "--m", "24", "--n", "3", "-o", str(out), "--json"], capsys)[0]
    _validator("bound").validate(cli)
    assert cli["written"] == [{"option": "-o", "file": str(out), "replaced": False}] and out.is_file()


def test_the_ceiling_is_stated_and_bounds_every_code_side(answers):
    """THEORY "The ceiling of L3/L4 (sharp form)": 3,864 at m = 64 and 65 at m = 32 (n = 3); no
    code or direct-sum side exceeds it at any cell."""
    assert answers[(64, 3)]["ceiling"] == 3864 and answers[(32, 3)]["ceiling"] == 65
    assert all(a["ceiling"] == ceiling(a["m"], a["n"]) for a in answers.values())
    coded = [a for a in answers.values() if a["lower_method"] in ("codes", "direct sum of codes")]
    assert len(coded) > 1000 and all(a["lower"] <= a["ceiling"] for a in coded)
    assert kb.bound(12, 2).ceiling is None


def test_the_grid_is_the_hub_in_every_cell_and_fits_a_screen(answers, capsys):
    """`table --grid --m 2..256 --n 3..8`: each cell's exact values are kb.bound's, its key letters
    name the sides' methods, its text is a true statement, and each line fits 120 columns."""
    block = _cli_lines(["table", "--grid", "--m", "2..256", "--n", "3..8", "--json"], capsys)[0]
    _validator("table-grid").validate(block)
    assert len(block["cells"]) == 255 * 6
    for cell in block["cells"]:
        want = answers[(cell["m"], cell["n"])]
        assert {k: cell[k] for k in ROW_FIELDS} == {k: want[k] for k in ROW_FIELDS}
        assert block["key"][cell["lower_key"]]["method"] == want["lower_method"]
        assert block["key"][cell["upper_key"]]["method"] == want["upper_method"]
        shown = cell["text"].split(" ")[0].split(grid.DASH)
        assert len(shown) == (1 if want["exact"] else 2)
        assert _at_most(shown[0], want["lower"]) and _at_least(shown[-1], want["upper"])
    assert main(["table", "--grid", "--m", "2..256", "--n", "3..8", "--format", "text"]) in (0, None)
    lines = capsys.readouterr().out.splitlines()
    table_lines = [line for line in lines if not line.startswith("  ") or line.strip()[:1].isdigit() or line.strip().startswith("m ")]
    assert len(table_lines) >= 256 and max(map(len, table_lines)) <= 120


def _at_most(text: str, value: int) -> bool:
    """The shown lower side is at most the true value (2^x.y rounded down, or the number)."""
    if text.startswith("2^"):
        t = int(text[2:].replace(".", ""))
        return 2**t <= value**10
    return int(text) == value


def _at_least(text: str, value: int) -> bool:
    if text.startswith("2^"):
        t = int(text[2:].replace(".", ""))
        return value**10 <= 2**t
    return int(text) == value


@given(st.integers(min_value=1, max_value=2**300))
def test_log2_text_rounds_outward(value):
    down, up = grid.log2_text(value, up=False), grid.log2_text(value, up=True)
    assert _at_most(down, value) and _at_least(up, value)
    t_down, t_up = (int(x[2:].replace(".", "")) for x in (down, up))
    assert t_up - t_down in (0, 1) and (t_up == t_down) == (value**10 == 2**t_down)


def test_exact_grid_prints_every_number_in_full(answers):
    b = grid.block(range(250, 257), range(7, 9))
    for (m, n), cell in b.cells.items():
        want = answers[(m, n)]
        assert cell.text(exact=True).split(" ")[0] == (str(want["lower"]) if want["exact"] else f"{want['lower']}{grid.DASH}{want['upper']}")


def test_grid_csv_and_html_carry_every_cell():
    import csv
    import io
    from html.parser import HTMLParser

    b = grid.block(range(30, 40), range(3, 6), "causal", "signed")
    rows = list(csv.reader(io.StringIO(grid.csv([b]))))
    body = [r for r in rows[1:] if r[2] != "key"]
    assert [int(r[2]) for r in body] == list(range(30, 40))
    assert all(r[3 + j] == b.cells[(int(r[2]), n)].text() for r in body for j, n in enumerate(b.ns))
    assert {r[3] for r in rows[1:] if r[2] == "key"} == set(b.key)

    class Cells(HTMLParser):
        def __init__(self):
            super().__init__()
            self.titles = []

        def handle_starttag(self, tag, attrs):
            if tag == "td":
                self.titles.append(dict(attrs)["title"])

    parser = Cells()
    parser.feed(grid.html(b))
    assert parser.titles == [f"m = {m}, n = {n}: {c.row.lower} <= r* <= {c.row.upper}" + (" (exact)" if c.row.exact else "") for (m, n), c in b.cells.items()]


def test_every_theory_label_a_side_shows_is_glossed(answers):
    """The text and the site gloss each side's THEORY label: every label a registered source
    gives a side (any kernel class) and every label of the grid's answers has a gloss."""
    from kernelbounds import sources
    from kernelbounds.reports.glossary import gloss
    from kernelbounds.vocabulary import KERNELS

    registered = {s.label(k)[1] for s in sources.REGISTRY.values() if s.SIDE for k in KERNELS}
    shown = {side["theory"] for a in answers.values() for side in a["sides"].values()}
    assert {"L4", "U4"} <= registered and {"L4", "L9"} <= shown
    assert not sorted(t for t in registered | shown if not gloss(t))
