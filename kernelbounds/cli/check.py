"""`kernelbounds check`: the independent checker on certificate files."""

from __future__ import annotations

from ..checker import check_file, worst_code
from ._common import limits_from


def register(sub) -> None:
    p = sub.add_parser("check", help="check certificate files with the independent checker")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE", help="override a checker limit (see docs/cli.md)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every verification route")
    p.set_defaults(func=run)


def run(args) -> int:
    limits = limits_from(args.limit)
    verdicts = []
    for path in args.files:
        verdict = check_file(path, limits)
        verdicts.append(verdict)
        print(verdict.summary and not args.verbose and verdict.ok and f"VALID {path}: {verdict.summary}" or verdict.render())
    return worst_code(verdicts)
