"""`python -m kernelbounds.checker FILE...`: the checker alone, for reviewers."""

from __future__ import annotations

import argparse
import sys

from . import check_file, worst_code
from .limits import parse_overrides


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kernelbounds.checker", description="Check kernelbounds certificates.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE", help="override a work limit, e.g. rank_m=8")
    args = parser.parse_args(argv)
    try:
        limits = parse_overrides(args.limit)
    except ValueError as exc:
        parser.error(f"bad --limit: {exc}")
    verdicts = [check_file(f, limits) for f in args.files]
    for v in verdicts:
        print(v.render())
    return worst_code(verdicts)


if __name__ == "__main__":
    sys.exit(main())
