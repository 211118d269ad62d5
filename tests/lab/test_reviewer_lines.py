"""lab/reviewer_lines.py against docs/soundness.md, "What a reviewer reads, per certificate
kind": every checker module a kind's rule imports (transitively, at HEAD) is named in that
kind's row or in the shared core the section lists first."""

import re
from pathlib import Path

from lab import reviewer_lines

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_a_rule_imports_is_named_in_its_row_or_the_core():
    text = (ROOT / "docs" / "soundness.md").read_text()
    section = text[text.index("### What a reviewer reads, per certificate kind"):]
    section = section[: section.find("\n## ")]
    core_text, rows_text = section.split("| kind |", 1)
    named = lambda s: {n.removeprefix("checker/") for n in re.findall(r"((?:checker/|rules/)?[a-z_]+\.py)", s)}  # noqa: E731
    core = named(core_text) | {"__init__.py", "rules/__init__.py", "bases.py"}  # bases: resolving a named base, the dispatcher's
    rows = {}
    for line in rows_text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and ".py" in cells[1]:
            rows[cells[0].split(" (")[0]] = named(cells[1])
    _, _, own = reviewer_lines.table("HEAD")
    kinds = [k for k in own if k]
    assert set(rows) == set(kinds)
    missing = {k: sorted(set(own[k]) - rows[k] - core) for k in kinds}
    assert not any(missing.values()), missing
