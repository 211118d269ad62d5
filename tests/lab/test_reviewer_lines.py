"""lab/reviewer_lines.py against docs/soundness.md, "What a reviewer reads, per certificate
kind", and the layering it relies on: the doc's files and counts (both readings, lines and
code lines) are the tool's at HEAD; only the dispatcher (and the command line) imports the
robustness layer, so skipping it skips nothing a rule's check runs; every kind has exactly
one rule and one work estimate."""

import re
from pathlib import Path

from kernelbounds.checker import budget, rules
from lab import reviewer_lines

ROOT = Path(__file__).resolve().parents[2]


def _section() -> str:
    text = (ROOT / "docs" / "soundness.md").read_text()
    section = text[text.index("### What a reviewer reads, per certificate kind"):]
    return section[: section.find("\n## ")]


def _named(text: str) -> list[str]:
    return sorted(n.removeprefix("checker/") for n in re.findall(r"((?:checker/|rules/)?[a-z_]+\.py) \(", text))


def test_the_doc_states_the_tools_files_and_counts_for_every_kind():
    section = _section()
    kinds, core = reviewer_lines.table("HEAD")
    assert _named(section[section.index("dispatcher's core,"):section.index(" lines (")]) == core.sound_files
    assert _named(section[section.index("the\n  layer"):section.index("(reading limits")]) == core.robust_files
    assert f"{core.sound[0]} lines ({core.sound[1]} code lines)" in section
    assert f"with the core {core.full[0]} lines, {core.full[1]} code\n  lines" in section
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[2].isdigit():
            rows[cells[0].split(" (")[0]] = cells
    assert set(rows) == set(kinds)
    for kind, reading in kinds.items():
        cells = rows[kind]
        assert _named(cells[1]) == reading.sound_files and _named(cells[4]) == reading.robust_files, kind
        assert [int(c) for c in (cells[2], cells[3], cells[5], cells[6])] == [*reading.sound, *reading.full], kind


def test_only_the_dispatcher_and_the_command_line_import_the_robustness_layer():
    """reviewer_lines never follows an import of budget.py: that is sound only while no module
    a reading follows imports it, except the dispatcher (whose calls decide nothing)."""
    src = reviewer_lines.sources("HEAD")
    known = {reviewer_lines._module(p): p for p in src}
    importers = {p for p, text in src.items() if reviewer_lines.ROBUSTNESS in reviewer_lines.imports(p, text, known)}
    assert importers <= {"dispatch.py", *reviewer_lines.ENTRY, "__main__.py"} and "dispatch.py" in importers


def test_every_kind_has_one_rule_and_one_estimate():
    assert set(rules.REGISTRY) == set(budget.ESTIMATES) and set(rules.NAMING) == set(budget.NAMING_ESTIMATES)
    assert not set(rules.REGISTRY) & set(rules.NAMING)
    assert all(not hasattr(rule, "work") or rule in budget.ESTIMATES.values() for rule in rules.REGISTRY.values())
