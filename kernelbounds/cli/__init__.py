"""Command-line front end: argument parsing and output only, no mathematics here.

One module per command (or pair of related commands); each has ``register(sub)``,
which declares its subparser, and a ``run(args) -> int`` returning the exit code.
Exit codes: 0 success/valid, 1 invalid or failed, 2 usage or malformed input,
3 resource limit, 4 internal error, 5 the theory is contradicted (keep the input),
6 the SAT solver's proof is not valid (refute; nothing proved), 130 interrupted (SIGINT,
Ctrl-C), 143 terminated (SIGTERM): either stops the command within about a second, its
process pool and checking children with it, with one line and no traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from .. import __version__
from . import bound, certificates, check, construct, crossing, docs, evaluate, exact, rank, refute, site, table, transcript, upper
from ..errors import UserFileChanged
from ..hub.answer import StaleIndex, TheoryContradicted
from ._common import CONTRADICTION, OneLineParser, UserError, os_error, say

INTERRUPTED, TERMINATED = 130, 143  # 128 + the signal's number, as a shell reports it


class Terminated(BaseException):
    """Raised by the command line's SIGTERM handler, so that the command unwinds as for
    Ctrl-C (process pools stopped, the checker's guarded child killed, a half-written
    temporary file removed) and exits TERMINATED with one line.  Not an Exception: no
    ``except Exception`` of the library swallows it."""


def _terminate(signum, frame) -> None:
    raise Terminated


def _on_sigterm():
    """Install the SIGTERM handler (main thread only); the previous one, to restore."""
    try:
        return signal.signal(signal.SIGTERM, _terminate)
    except (ValueError, OSError):  # not the main thread: the default action stays
        return None

EPILOG = """exit codes: 0 success/valid, 1 invalid or failed, 2 usage error or malformed input,
3 resource limit, 4 internal error, 5 the theory is contradicted (keep the input, report it),
6 the SAT solver's proof is not valid (refute: it claimed UNSAT; nothing proved, nothing written),
130 interrupted (Ctrl-C, SIGINT), 143 terminated (SIGTERM): the command stops within about a second.
Every command takes --json (one JSON object, or JSON Lines for streams; integers are exact
JSON integers at every size) and '-' for standard input/output wherever it reads or writes a file.
`kernelbounds COMMAND --help` describes a command; docs/cli.md and docs/api.md (Python API)."""

COMMANDS = (construct, bound, table, rank, upper, exact, evaluate, transcript, crossing, refute, check, certificates, docs, site)

# The package's dependencies (pyproject.toml, by the module each installs; tests/cli/test_reviewer_install.py
# keeps the two lists equal).  A reviewer's install has python-flint only (docs/soundness.md): `check`
# and the parser import none of the others, and every command module imports its generators when it
# runs, so a command that needs one stops with one line naming it (exit 2) instead of a traceback.
DEPENDENCIES = {"flint": "python-flint", "numpy": "numpy", "scipy": "scipy", "tqdm": "tqdm", "mpmath": "mpmath"}  # module: distribution
EXTRAS = {"ortools": ("ortools", "search"), "matplotlib": ("matplotlib", "plots")}  # module: (distribution, the optional extra)


def missing_dependency(exc: ModuleNotFoundError) -> str | None:
    """The distribution name of the package's dependency whose absence raised exc, or None."""
    return DEPENDENCIES.get((exc.name or "").partition(".")[0])


def missing_extra(exc: ModuleNotFoundError) -> tuple[str, str] | None:
    """(distribution, extra) of the optional dependency whose absence raised exc, or None."""
    return EXTRAS.get((exc.name or "").partition(".")[0])


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="kernelbounds", description="Certified expressivity bounds for nonnegative kernel attention on Min-IP.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"kernelbounds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in COMMANDS:
        module.register(sub)
    for p in sub.choices.values():
        p.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def quiet_stdout() -> None:
    """After an OSError: if standard output no longer takes its buffered bytes, point it at
    /dev/null so that the interpreter's last flush adds no second message."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # plain `kernelbounds`: the usage and the list of commands
        parser.print_help()
        return 0
    from .. import progress

    quiet = progress.QUIET
    progress.QUIET = quiet or getattr(args, "json", False) or getattr(args, "format", None) == "json"  # machine-readable output: no bars
    previous = _on_sigterm()
    try:
        code = args.func(args)
        try:
            sys.stdout.flush()  # a full or closed standard output is reported here, not at exit
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise UserError(f"cannot write standard output: {exc.strerror or exc}") from None
        return code
    except UserError as exc:
        say(f"kernelbounds: error: {exc}")
        return 2
    except TheoryContradicted as exc:  # two certified sides disagree: never an answer
        say(f"kernelbounds: {exc}")
        return CONTRADICTION
    except UserFileChanged as exc:  # a user folder's file changed after its check: the input's fault
        say(f"kernelbounds: error: {exc}")
        return 2
    except StaleIndex as exc:  # the installation's certificate set is inconsistent
        say(f"kernelbounds: error: {exc}")
        return 4
    except KeyboardInterrupt:
        quiet_stdout()
        say("kernelbounds: interrupted")
        return INTERRUPTED
    except Terminated:
        quiet_stdout()
        say("kernelbounds: terminated")
        return TERMINATED
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # the environment's fault (a full disk, a name too long, a closed stream): exit 2
        quiet_stdout()
        say(f"kernelbounds: error: {os_error(exc)}")
        return 2
    except Exception as exc:  # an internal error: one line, exit 4 (a missing dependency: one line, exit 2)
        needed = missing_dependency(exc) if isinstance(exc, ModuleNotFoundError) else None
        if needed is not None:
            say(f"kernelbounds: error: `kernelbounds {args.command}` needs {needed}, which is not installed (a checker-only install: "
                f"`kernelbounds check` works; install kernelbounds with its dependencies for the other commands)")
            return 2
        extra = missing_extra(exc) if isinstance(exc, ModuleNotFoundError) else None
        if extra is not None:
            say(f"kernelbounds: error: `kernelbounds {args.command}` needs {extra[0]}, which is not installed (the optional extra: pip install 'kernelbounds[{extra[1]}]')")
            return 2
        say(f"kernelbounds: internal error: {type(exc).__name__}: {exc}")
        if os.environ.get("KERNELBOUNDS_DEBUG"):
            raise
        return 4
    finally:
        progress.QUIET = quiet
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
