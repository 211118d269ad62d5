"""`kernelbounds check`: the independent checker on certificate files."""

from __future__ import annotations

import sys

from ..checker import check_bytes, check_file, worst_code
from ..checker.errors import CODE_NAMES
from ._common import emit_json, limits_from

HELP = """Check certificate files with the independent checker (kernelbounds.checker, which
imports nothing else of the package): every claimed number is re-derived exactly, and a
rejection names the JSON pointer of the field and the reason.  '-' reads standard input."""

EPILOG = """exit codes: (the most severe over all files) 0 valid, 1 invalid (a claim is false),
2 malformed file or usage error, 3 resource limit (see --limit), 4 internal error.
limits: NAME=VALUE for any field of kernelbounds.checker.limits.Limits (e.g. max_file_bytes=67108864).
example: kernelbounds check certificates/*.json --json"""


def register(sub) -> None:
    p = sub.add_parser("check", help="check certificate files with the independent checker", description=HELP, epilog=EPILOG)
    p.add_argument("files", nargs="+", metavar="FILE", help="certificate files ('-' for standard input)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE", help="override a checker limit (repeatable)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every verification route")
    p.add_argument("--json", action="store_true", help="one JSON object per file (JSON Lines): path, ok, code, verdict, kind, summary, pointer, reason, routes, seconds")
    p.set_defaults(func=run)


def run(args) -> int:
    limits = limits_from(args.limit)
    verdicts = []
    for path in args.files:
        verdict = check_bytes(sys.stdin.buffer.read(), "-", limits) if path == "-" else check_file(path, limits)
        verdicts.append(verdict)
        if args.json:
            emit_json({"path": verdict.path, "ok": verdict.ok, "code": verdict.code, "verdict": CODE_NAMES[verdict.code], "kind": verdict.kind, "summary": verdict.summary, "pointer": verdict.pointer, "reason": verdict.reason, "routes": list(verdict.routes), "seconds": round(verdict.seconds, 3)})
        else:
            print(verdict.summary and not args.verbose and verdict.ok and f"VALID {path}: {verdict.summary}" or verdict.render())
    return worst_code(verdicts)
