"""`python -m kernelbounds.checker FILE...`: the checker alone, for reviewers.

``kernelbounds check`` is this same front end (``add_arguments`` and ``run``), so both
take the same options, print the same lines and return the same exit codes.  One line
per file (``-`` reads standard input); ``-v`` adds indented route lines under a valid
verdict.  A closed output pipe stops the printing quietly but not the checking: the exit
code is still the most severe verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import check_file, worst_code
from .limits import parse_overrides
from .errors import CODE_NAMES


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="certificate files; - reads standard input")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE", help="override a checker limit, e.g. work_budget=10**9 written out (see docs/cli.md)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every verification route and the check time")
    parser.add_argument("--json", action="store_true", help="one JSON object per file (JSON Lines): path, ok, code, verdict, kind, summary, pointer, reason, routes, seconds")


def run(args, prog: str = "python -m kernelbounds.checker") -> int:
    try:
        limits = parse_overrides(args.limit)
    except ValueError as exc:
        print(f"{prog}: error: bad --limit: {str(exc).encode('ascii', 'backslashreplace').decode()}", file=sys.stderr)
        return 2
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    verdicts, printing = [], True
    for path in args.files:
        verdict = check_file(path, limits)
        verdicts.append(verdict)
        if printing:
            try:
                print(_json_line(verdict) if args.json else verdict.render(args.verbose), flush=True)
            except BrokenPipeError:  # the reader went away (e.g. `| head`): keep checking, stop printing
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                printing = False
    return worst_code(verdicts)


def _json_line(verdict) -> str:
    """A verdict as one line of JSON (ASCII: every file-derived string is escaped by json)."""
    record = {
        "path": verdict.path, "ok": verdict.ok, "code": int(verdict.code), "verdict": CODE_NAMES[verdict.code],
        "kind": verdict.kind, "summary": verdict.summary, "pointer": verdict.pointer, "reason": verdict.reason,
        "routes": list(verdict.routes), "seconds": round(verdict.seconds, 3),
    }
    return json.dumps(record, sort_keys=True, ensure_ascii=True)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m kernelbounds.checker", description="Check kernelbounds certificates.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
