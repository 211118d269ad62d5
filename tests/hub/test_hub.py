"""One answer for (m, n): the hub (kernelbounds.hub.answer) against the CLI, the API, the docs
tables and the committed certificate set."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stdout
from math import comb
from pathlib import Path

import pytest

import kernelbounds as kb
from kernelbounds.hub import answer
from kernelbounds.reports import generated
from kernelbounds.cli import main
from kernelbounds.cli._common import json_safe

ROOT = Path(__file__).resolve().parents[2]
MS, NS = range(2, 65), range(1, 9)


@pytest.fixture(scope="module")
def grid():
    """The hub's answer at every (m, n) of the default ranges (two processes)."""
    return {(a.m, a.n): a for a in answer.table(MS, NS, jobs=2)}


def _cli_json(argv: list[str]) -> dict:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(argv) == 0
    return json.loads(out.getvalue())


def test_the_docs_tables_are_current():
    """Every generated table and grid in docs/ and README.md is what `kernelbounds
    docs-tables` renders now (run it to refresh them)."""
    files = generated.docs_files(ROOT)
    assert {f.name for f in files} >= {"bounds-n3-table.md", "bounds-table.md", "bounds-grid.md"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert generated.render_docs(text, jobs=2) == text, f"{path} is stale: run `kernelbounds docs-tables`"


def _docs_rows(columns=("lower", "upper (any features)", "upper (nonnegative features)")) -> dict:
    """(m, n) -> the named columns of docs/bounds-table.md, as integers (None for "n/a")."""
    rows, head = {}, None
    for line in (ROOT / "docs" / "bounds-table.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:2] == ["m", "n"]:
            head = cells
        elif len(cells) > 5 and cells[0].isdigit():
            values = [cells[head.index(c)].split()[0] for c in columns]
            rows[(int(cells[0]), int(cells[1]))] = tuple(None if v == "n/a" else int(v) for v in values)
    return rows


def test_the_docs_table_signed_columns_are_the_hubs(grid):
    """The columns "lower (signed)" and "lower (signed, any denominator)" (THEORY L8)."""
    docs = _docs_rows(("lower (signed)", "lower (signed, any denominator)"))
    for m, n in grid:
        assert docs[(m, n)] == tuple(kb.bound(m, n, kernel=k).lower for k in ("signed", "signed-any-denominator")), (m, n)


def test_every_cell_has_one_answer_everywhere(grid):
    """For every m in 2..64 and n in 1..8: `bound --json`, `upper --json` (both columns),
    kb.bound, kb.upper and the docs table give the hub's lower and upper."""
    docs = _docs_rows()
    for (m, n), a in grid.items():
        want = (a.lower.value, a.upper.value, a.upper_nonnegative.value)
        b = kb.bound(m, n)
        assert (b.lower, b.upper, b.upper_nonnegative) == want
        assert (kb.upper(m, n).upper, kb.upper(m, n, nonnegative=True).upper) == want[1:]
        cli = _cli_json(["bound", "--m", str(m), "--n", str(n), "--json"])
        assert (cli["lower"], cli["upper"], cli["upper_nonnegative"]) == want
        assert cli == json_safe(b.to_json()) | {"written": []}  # the command lists the files it wrote
        up = _cli_json(["upper", "--m", str(m), "--n", str(n), "--json"])
        upn = _cli_json(["upper", "--m", str(m), "--n", str(n), "--nonnegative", "--json"])
        assert (up["upper"], upn["upper"], up["lower"]) == (want[1], want[2], want[0])
        assert docs[(m, n)] == want, (m, n)


def test_the_hub_answers_small_cells_as_theory_says():
    b = kb.bound(12, 3)
    assert b.lower >= 4 and b.upper <= 91 and b.upper_nonnegative <= 133
    two = kb.bound(12, 2)
    assert (two.lower, two.upper, two.exact) == (1, 1, True)
    assert two.sides["upper"]["theory"] == "U1"
    assert kb.bound(5, 1).exact and kb.upper(5, 1).upper == 1


def test_bounds_are_ordered_and_closed_under_restriction(grid):
    """lower <= upper <= upper_nonnegative <= 2^m (n >= 2), and r*(m, n) <= r*(m + 1, n):
    the lower and upper columns never decrease in m (THEORY U5)."""
    for (m, n), a in grid.items():
        assert 1 <= a.lower.value <= a.upper.value <= a.upper_nonnegative.value
        assert a.upper_nonnegative.value <= 2**m
        assert a.exact == (a.lower.value == a.upper.value)
        if (m + 1, n) in grid:
            nxt = grid[(m + 1, n)]
            assert nxt.lower.value >= a.lower.value and nxt.upper.value >= a.upper.value, (m, n)
            assert nxt.upper_nonnegative.value >= a.upper_nonnegative.value, (m, n)
    assert all(grid[(m, n)].exact and grid[(m, n)].upper.value == 1 for m in MS for n in (1, 2))


def test_the_committed_set_proves_what_the_hub_says(grid):
    """The committed certificates are an input, not a second truth: no claim beats the hub
    (lower claims at m' hold for m >= m', upper claims at m' for m <= m' by restriction),
    and every file the hub cites proves exactly the value it cites it for."""
    claims = answer.committed()
    assert claims, "no committed certificates found"
    for k in claims:
        for (m, n), a in grid.items():
            if n != k.n:
                continue
            if k.side == "lower" and m >= k.m and "position-independent" in k.variants:
                assert a.lower.value >= k.value, (k.filename, m)
            if k.side == "upper" and m <= k.m:
                restricted = sum(comb(m, j) for j in k.support if j <= m) if k.support else k.value
                assert a.upper.value <= restricted, (k.filename, m)
                if k.nonnegative_features:
                    assert a.upper_nonnegative.value <= restricted, (k.filename, m)
    by_name = {k.filename: k for k in claims}
    for (m, n), a in grid.items():
        for side in (a.lower, a.upper, a.upper_nonnegative):
            if side.certificate is not None:
                k = by_name[side.certificate]
                value = sum(comb(m, j) for j in k.support if j <= m) if k.support else k.value
                assert value == side.value, (side.certificate, m, n)


@pytest.mark.parametrize("m, n", [(12, 3), (11, 3), (4, 3), (30, 4), (3, 5), (7, 2)])
def test_each_side_has_a_certificate_the_checker_accepts(m, n, tmp_path):
    """`bound -o` and `--upper-output` write certificates that `check` accepts, for the
    lower side (unless trivial) and the upper side (restricted files included)."""
    a = answer.bounds(m, n)
    for side in (a.lower, a.upper, a.upper_nonnegative):
        if side.method == "trivial":
            with pytest.raises(ValueError):
                side.certificate_document()
            continue
        doc = side.certificate_document()
        v = kb.check(doc)
        assert v.ok, (side, v.summary, v.reason)
        if side.from_m == m or side.theory in ("U4",):
            assert doc["m"] == m
    out, up = tmp_path / "lb.json", tmp_path / "ub.json"
    args = ["bound", "--m", str(m), "--n", str(n), "--upper-output", str(up)] + ([] if a.lower.method == "trivial" else ["-o", str(out)])
    assert main(args) == 0
    assert kb.check(up).ok


def test_no_module_outside_the_hub_assembles_both_sides():
    """Only the hub combines the lower and the upper side (`best_known` is its word)."""
    for path in (ROOT / "kernelbounds").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.relative_to(ROOT).as_posix() != "kernelbounds/hub/answer.py" and "checker" not in path.parts:
            assert not re.search(r"\bbest_known\b", text), path


def test_testing_without_the_test_extra_names_the_extra():
    code = "import sys; sys.modules['hypothesis'] = None\ntry:\n import kernelbounds.testing\nexcept ImportError as e:\n print(e)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "kernelbounds[test]" in out.stdout, out.stdout + out.stderr
