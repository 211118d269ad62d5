"""docs/soundness.md, "What a reviewer reads, per certificate kind": the line counts it
gives for the checker's files are those of the files, and each row's totals are the core's
(and the robustness layer's) plus its files."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "kernelbounds" / "checker"
FILE = r"((?:checker/|rules/)?[a-z_]+(?:/[a-z_]+)?\.py)`? \((\d+)"


def _section() -> str:
    text = (ROOT / "docs" / "soundness.md").read_text()
    start = text.index("### What a reviewer reads, per certificate kind")
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


def _lines(name: str) -> int:
    return len((CHECKER / name.removeprefix("checker/")).read_text().splitlines())


def _counts(text: str) -> list[int]:
    return [int(n) for _, n in re.findall(FILE, text)]


def test_every_stated_line_count_is_the_files():
    stated = re.findall(r"`?" + FILE, _section())
    assert len(stated) >= 40
    wrong = [(name, int(n), _lines(name)) for name, n in stated if _lines(name) != int(n)]
    assert not wrong, f"(file, stated, actual): {wrong}"


def test_each_kind_row_total_is_the_core_plus_its_files():
    section = _section()
    core_text = section[section.index("dispatcher's core,"):section.index(" lines (")]
    layer_text = section[section.index("the\n  layer"):section.index("(reading limits")]
    core, layer = sum(_counts(core_text)), sum(_counts(layer_text))
    assert core > 0 and layer > 0 and f"{core} lines (" in section and f"with the core {core + layer} lines" in section
    rows = [line for line in section.splitlines() if line.startswith("| ") and ".py" in line]
    assert len(rows) >= 13
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        sound = core + sum(_counts(cells[1]))
        assert int(cells[2]) == sound, row
        assert int(cells[5]) == sound + layer + sum(_counts(cells[4])), row
