"""`kernelbounds docs-tables`: render every bounds table, grid and plot in docs/ (and README.md)
from the hub, or with --check report the stale ones (exit 1)."""

from __future__ import annotations

from pathlib import Path

from ..reports import generated, plots
from ..certificate import write_atomic
from ._common import UserError, jobs_option


def register(sub) -> None:
    p = sub.add_parser(
        "docs-tables",
        help="render the bounds tables and plots in docs/ from the hub (--check: exit 1 if any is stale)",
        description="Every table of bounds in docs/*.md and README.md sits between a line `<!-- kernelbounds table --m A..B --n C..D -->` and `<!-- end of generated table -->`, "
                    "every grid between `<!-- kernelbounds grid --m A..B --n C..D [--variant V] [--kernel K] -->` and `<!-- end of generated grid -->`, "
                    "every plot between `<!-- kernelbounds plot FILE.png --m A..B --n LIST [--variant V] [--kernel K] [--log2] -->` and `<!-- end of generated plot -->`; "
                    "this command renders each from kernelbounds.hub.answer (the same answers as `bound`, `upper`, `table` and the API). "
                    "A plot's data (the plotted numbers) is kept beside it in FILE.png.json and its sha256 in the PNG: --check compares the data, not the pixels. "
                    "Every other PNG in docs/ must name the data file it was drawn from and carry its sha256 (it is named, never redrawn, when stale).",
        epilog="exit codes: 0 success (or, with --check, every table and plot current), 1 (--check) some table or plot is stale, or a PNG another command draws is stale, "
               "2 usage error, a malformed plot marker, matplotlib missing or an unwritable file.\nexample: kernelbounds docs-tables --check",
    )
    p.add_argument("--root", default=".", help="the project's root (default: the current folder)")
    p.add_argument("--check", action="store_true", help="do not write; exit 1 and name the files whose tables or plots differ")
    jobs_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    root = Path(args.root)
    if not (root / "docs").is_dir():
        raise UserError(f"{root}: no docs/ folder (give --root, the project's root)")
    stale: list[tuple[Path, str]] = []
    drawn: set[Path] = set()
    for path in sorted(set(generated.docs_files(root)) | set(plots.docs_files(root))):
        old = path.read_text(encoding="utf-8")
        try:
            new = plots.render_text(generated.render_docs(old, jobs=args.jobs))
            if new != old:
                stale.append((path, ""))
                if not args.check:
                    write_atomic(path, new)
            stale += plots.render(path, new, args.check, jobs=args.jobs)
            drawn |= {(path.parent / spec.file).resolve() for _match, spec in plots.specs(new)}
        except plots.SpecError as exc:
            raise UserError(f"{path}: {exc}") from None
        except plots.NoMatplotlib as exc:
            raise UserError(str(exc)) from None
    foreign = plots.unmarked(root, drawn)  # another command draws these: named, never redrawn here
    for path, why in stale:
        print(f"{'stale' if args.check else 'rendered'}: {path}{f' ({why})' if why else ''}")
    for path, why in foreign:
        print(f"stale: {path} ({why})")
    return 1 if (args.check and stale) or foreign else 0
