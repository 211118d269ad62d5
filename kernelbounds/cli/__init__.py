"""Command-line front end: argument parsing and output only, no mathematics here.

One module per command (or pair of related commands); each has ``register(sub)``,
which declares its subparser, and a ``run(args) -> int`` returning the exit code.
Exit codes: 0 success/valid, 1 invalid or failed, 2 usage or malformed input,
3 resource limit, 4 internal error, 5 the theory is contradicted (keep the input).
"""

from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from . import bound, certificates, check, construct, crossing, docs, evaluate, exact, rank, refute, table, transcript, upper
from ..hub.answer import StaleIndex, TheoryContradicted
from ._common import CONTRADICTION, OneLineParser, UserError

EPILOG = """exit codes: 0 success/valid, 1 invalid or failed, 2 usage error or malformed input,
3 resource limit, 4 internal error, 5 the theory is contradicted (keep the input, report it).
Every command takes --json (one JSON object, or JSON Lines for streams; integers >= 2^53 as
decimal strings) and '-' for standard input/output wherever it reads or writes a file.
`kernelbounds COMMAND --help` describes a command; docs/cli.md and docs/api.md (Python API)."""

COMMANDS = (construct, bound, table, rank, upper, exact, evaluate, transcript, crossing, refute, check, certificates, docs)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="kernelbounds", description="Certified expressivity bounds for nonnegative kernel attention on Min-IP.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"kernelbounds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in COMMANDS:
        module.register(sub)
    for p in sub.choices.values():
        p.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # plain `kernelbounds`: the usage and the list of commands
        parser.print_help()
        return 0
    from .. import progress

    quiet = progress.QUIET
    progress.QUIET = quiet or getattr(args, "json", False) or getattr(args, "format", None) == "json"  # machine-readable output: no bars
    try:
        return args.func(args)
    except UserError as exc:
        print(f"kernelbounds: error: {exc}", file=sys.stderr)
        return 2
    except TheoryContradicted as exc:  # two certified sides disagree: never an answer
        print(f"kernelbounds: {exc}", file=sys.stderr)
        return CONTRADICTION
    except StaleIndex as exc:  # the installation's certificate set is inconsistent
        print(f"kernelbounds: error: {exc}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        print("kernelbounds: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # an internal error: one line, exit 4
        print(f"kernelbounds: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if os.environ.get("KERNELBOUNDS_DEBUG"):
            raise
        return 4
    finally:
        progress.QUIET = quiet
