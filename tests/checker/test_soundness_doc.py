"""docs/soundness.md, "What a reviewer reads, per certificate kind": the line counts it
gives for the checker's files are those of the files, and each row's total is its sum."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "kernelbounds" / "checker"


def _section() -> str:
    text = (ROOT / "docs" / "soundness.md").read_text()
    start = text.index("### What a reviewer reads, per certificate kind")
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


def _lines(name: str) -> int:
    return len((CHECKER / name.removeprefix("checker/")).read_text().splitlines())


def test_every_stated_line_count_is_the_files():
    stated = re.findall(r"`?((?:checker/|rules/)?[a-z_]+(?:/[a-z_]+)?\.py)`? \((\d+)", _section())
    assert len(stated) >= 20
    wrong = [(name, int(n), _lines(name)) for name, n in stated if _lines(name) != int(n)]
    assert not wrong, f"(file, stated, actual): {wrong}"


def test_each_kind_row_total_is_the_sum_of_its_files():
    rows = [line for line in _section().splitlines() if line.startswith("| ") and line.rstrip().endswith("|") and ".py" in line]
    assert len(rows) >= 10
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        counts = [int(n) for n in re.findall(r"\.py \((\d+)", cells[1])]
        assert sum(counts) == int(cells[2]), row
