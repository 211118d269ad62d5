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
from typing import NoReturn, Protocol

from . import Verdict, bounded, check_file
from .budget import DIGITS, parse_overrides
from .limits import MAX_MEMORY_LIMIT, MAX_TIME_LIMIT
from .arguments import bounded_int, shortened
from .text import escape
from .errors import CODE_NAMES, VALID


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {escape(message)} (see {self.prog} --help)\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="certificate files; - reads standard input")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE", help="override a checker limit, e.g. work_budget=10**9 written out (see docs/cli.md)")
    parser.add_argument("--time-limit", type=_seconds, default=None, metavar="SECONDS", help="runtime guard: CPU seconds per file, enforced while the check runs (default 60; 0 = off); a breach is exit 3")
    parser.add_argument("--memory-limit", type=_bytes, default=None, metavar="SIZE", help="runtime guard: memory per file, e.g. 2G, 512M or bytes (default 2G; 0 = off); a breach is exit 3")
    parser.add_argument("--base", action="append", default=[], metavar="PATH", help="a file that a certificate may name by its sha256 (kind rank-extension), looked up before the certificate's own folder; the other FILEs count too")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every verification route and the check time")
    parser.add_argument("--json", action="store_true", help="one JSON object per file (JSON Lines): path, ok, code, verdict, kind, summary, pointer, reason, routes, seconds")


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def _seconds(text: str) -> int:
    """--time-limit: whole seconds >= 0 (RLIMIT_CPU counts whole seconds)."""
    if not DIGITS.fullmatch(text):  # ASCII digits only, as every integer option
        raise argparse.ArgumentTypeError(f"expected whole seconds (ASCII digits), got {shortened(text)}")
    value = bounded_int(text)
    if value is None or not 0 <= value <= MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"must be 0..{MAX_TIME_LIMIT} seconds (0 = off), got {shortened(text)}")
    return value


_seconds.__name__ = "seconds"  # argparse's fallback message names the type


def _bytes(text: str) -> int:
    """--memory-limit: bytes, or a number with K, M or G (binary units; GiB etc. also read)."""
    body = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = body[-1:] if body[-1:] in "KMG" and body[-1:] else ""
    number = body[: len(body) - len(unit)]
    if not DIGITS.fullmatch(number):
        raise argparse.ArgumentTypeError(f"expected a size such as 2G, 512M or 1000000 (ASCII digits), got {shortened(text)}")
    value = bounded_int(number)
    value = None if value is None else value * _UNITS[unit]
    if value is None or not 0 <= value <= MAX_MEMORY_LIMIT:
        raise argparse.ArgumentTypeError(f"must be 0..{MAX_MEMORY_LIMIT} bytes (1 PiB; 0 = off), got {shortened(text)}")
    return value


_bytes.__name__ = "size"


class Progress(Protocol):
    def update(self, n: int) -> object: ...


def run(args: argparse.Namespace, prog: str = "python -m kernelbounds.checker", progress: Progress | None = None) -> int:
    """Check every file and print its verdict; ``progress`` (an object with ``update(n)``,
    e.g. the CLI's bar) advances once per file."""
    try:
        limits = parse_overrides(args.limit)
        guard = {k: v for k, v in (("time_limit", getattr(args, "time_limit", None)), ("memory_limit", getattr(args, "memory_limit", None))) if v is not None}
        limits = limits.with_overrides(**guard)
        problem = limits.guard_problem()
        if problem:
            raise ValueError(problem)
    except ValueError as exc:
        print(f"{prog}: error: bad --limit: {str(exc).encode('ascii', 'backslashreplace').decode()}", file=sys.stderr)
        return 2
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    verdicts, printing = [], True
    named = [*getattr(args, "base", []), *args.files]  # where a file named by sha256 is looked for (bases.py)
    for path in args.files:
        verdict = check_file(path, limits, bases=named)
        verdicts.append(verdict)
        if progress is not None:
            progress.update(1)
        if printing:
            try:
                print(_json_line(verdict) if args.json else verdict.render(args.verbose), flush=True)
            except BrokenPipeError:  # the reader went away (e.g. `| head`): keep checking, stop printing
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                printing = False
    return worst_code(verdicts)


def worst_code(verdicts: list[Verdict]) -> int:
    """The exit code for several files: the most severe verdict."""
    return max((v.code for v in verdicts), default=VALID)  # Code is ordered by severity


def _json_line(verdict: Verdict) -> str:
    """A verdict as one line of JSON (ASCII: every file-derived string is escaped by json)."""
    record = {
        "path": verdict.path, "ok": verdict.ok, "code": int(verdict.code), "verdict": CODE_NAMES[verdict.code],
        "kind": bounded(verdict.kind), "summary": bounded(verdict.summary), "pointer": bounded(verdict.pointer), "reason": bounded(verdict.reason),
        "routes": [bounded(r) for r in verdict.routes], "seconds": round(verdict.seconds, 3),
    }
    return json.dumps(record, sort_keys=True, ensure_ascii=True)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m kernelbounds.checker", description="Check kernelbounds certificates.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:  # the checking child is already killed (guard.run)
        print("python -m kernelbounds.checker: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
