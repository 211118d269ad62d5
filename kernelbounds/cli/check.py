"""`kernelbounds check`: the independent checker on certificate files.

The same front end as ``python -m kernelbounds.checker`` (kernelbounds/checker/__main__.py):
same options, output lines and exit codes.
"""

from __future__ import annotations

from ..checker.__main__ import add_arguments
from ..checker.__main__ import run as run_checker
from ._common import resolve_certificate


HELP = """Check certificate files with the independent checker (kernelbounds.checker, which
imports nothing else of the package): every claimed number is re-derived exactly, and a
rejection names the JSON pointer of the field and the reason.  '-' reads standard input.
The same front end as `python -m kernelbounds.checker`.  A FILE that does not exist here but
names a shipped certificate (e.g. witness-m24-n3-r8.json or certificates/witness-m24-n3-r8.json;
`kernelbounds certificates --list`) checks the shipped file, and one line on stderr says so."""

EPILOG = """exit codes: (the most severe over all files) 0 valid, 1 invalid (a claim is false),
2 malformed file or usage error, 3 resource limit (see --limit; also a breach of the
runtime guard --time-limit / --memory-limit, enforced while the check runs), 4 internal error.
limits: NAME=VALUE for any field of kernelbounds.checker.limits.Limits (e.g. work_budget=1200000000).
example: kernelbounds check witness-m24-n3-r8.json
example: kernelbounds check transcript-q3-s4.json rank-tensor-m08.json --json   (JSON Lines; in a checkout: certificates/*.json)"""


def register(sub) -> None:
    p = sub.add_parser("check", help="check certificate files with the independent checker", description=HELP, epilog=EPILOG)
    add_arguments(p)
    p.set_defaults(func=run)


MANY = 5  # a progress bar (on a terminal, without --json) from this many files on


def run(args) -> int:
    from ..progress import bar

    args.files = [resolve_certificate(f) for f in args.files]
    if args.json:
        return run_checker(args, prog="kernelbounds check")
    if len(args.files) < MANY:  # a status line with a clock when a check runs past a second
        from ..progress import status

        with status(f"check: {len(args.files)} file{'s' if len(args.files) > 1 else ''} with the independent checker") as line:
            return run_checker(args, prog="kernelbounds check", progress=line)
    with bar(len(args.files), "check", "file") as progress:
        return run_checker(args, prog="kernelbounds check", progress=progress)

