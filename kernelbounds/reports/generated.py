"""The generated parts of docs/ and README.md: the bounds tables (:mod:`.report`, between
`<!-- kernelbounds table ... -->` and `<!-- end of generated table -->`) and the grids
(:mod:`.grid`, between `<!-- kernelbounds grid ... -->` and `<!-- end of generated grid -->`),
rendered from the hub's answers.  Kept apart from both so that the grid, which builds on the
table's rows, is not imported by the table."""

from __future__ import annotations

from . import grid, report


def render_docs(text: str, jobs: int | None = 1) -> str:
    """The text with every generated table and grid rendered anew from the hub."""
    return grid.render_docs(report.render_docs(text, jobs=jobs), jobs=jobs)


def docs_files(root) -> list:
    """The docs/ files (and README.md) that carry a generated table or grid."""
    from pathlib import Path

    root = Path(root)
    files = sorted((root / "docs").glob("*.md")) + [root / "README.md"]
    return [f for f in files if f.is_file() and any(mark.search(f.read_text(encoding="utf-8")) for mark in (report.DOCS_MARK, grid.DOCS_MARK))]
