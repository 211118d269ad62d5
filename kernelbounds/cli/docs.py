"""`kernelbounds docs-tables`: render every bounds table in docs/ (and README.md) from the
hub, or with --check report the stale ones (exit 1)."""

from __future__ import annotations

from pathlib import Path

from ..hub import report
from ..certificate import write_atomic
from ._common import UserError, jobs_option


def register(sub) -> None:
    p = sub.add_parser(
        "docs-tables",
        help="render the bounds tables in docs/ from the hub (--check: exit 1 if any is stale)",
        description="Every table of bounds in docs/*.md and README.md sits between a line `<!-- kernelbounds table --m A..B --n C..D -->` and `<!-- end of generated table -->`; this command renders each from kernelbounds.hub.answer (the same answers as `bound`, `upper`, `table` and the API).",
        epilog="exit codes: 0 success (or, with --check, every table current), 1 (--check) some table is stale, 2 usage error or unwritable file.\nexample: kernelbounds docs-tables --check",
    )
    p.add_argument("--root", default=".", help="the project's root (default: the current folder)")
    p.add_argument("--check", action="store_true", help="do not write; exit 1 and name the files whose tables differ")
    jobs_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    root = Path(args.root)
    if not (root / "docs").is_dir():
        raise UserError(f"{root}: no docs/ folder (give --root, the project's root)")
    stale = []
    for path in report.docs_files(root):
        old = path.read_text(encoding="utf-8")
        new = report.render_docs(old, jobs=args.jobs)
        if new != old:
            stale.append(path)
            if not args.check:
                write_atomic(path, new)
    for path in stale:
        print(f"{'stale' if args.check else 'rendered'}: {path}")
    return 1 if (args.check and stale) else 0
