"""Shared pieces of the command-line front end: parsing helpers, output, user errors."""

from __future__ import annotations

import argparse
import errno
import sys
from fractions import Fraction

from ..errors import KernelboundsError
from ..arguments import ASCII_INTEGER
from ..certificate import canonical_json, write_atomic
from ..checker import Limits
from ..checker.budget import parse_overrides
from ..checker.arguments import bounded_int, shortened
from ..checker.text import escape
from ..parallel import LOCAL, SchedulerError, default_jobs

CONTRADICTION = 5  # exit code: an exact check contradicts the theory (THEORY.md)
INVALID_PROOF = 6  # exit code: the SAT solver claimed UNSAT with a proof that does not show it (refute)
from ..vocabulary import VARIANTS  # noqa: F401 (the --variant choices)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {escape(message)} (see {self.prog} --help)\n")


class UserError(KernelboundsError):
    """A mistake in the user's request: one clear line, exit code 2."""


MAX_SHOWN = 300  # a name or message longer than this is cut in a printed line


def one_line(text: object, limit: int = MAX_SHOWN) -> str:
    """Any text made one printable line for the terminal: the checker's escape (control
    characters, ESC, newlines, lone surrogates and backslashes escaped: the one escaping
    routine of the package, kernelbounds.checker.text), cut after `limit` characters."""
    text = escape(str(text))
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def say(line: str, stream=None) -> None:
    """Print one line about user-supplied names or strings (errors, warnings) to stderr
    (or stream), escaped by one_line: a name with ESC or a newline cannot forge a line."""
    print(escape(line), file=stream or sys.stderr)


WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF}  # a failed write to an unnamed stream


def os_error(exc: OSError) -> str:
    """An operating-system error as one line: its reason and the (escaped, shortened) file;
    a write error that names no file is standard output's (every file a command writes is
    named: write_doc, the plot)."""
    if getattr(exc, "filename", None):
        return f"{exc.strerror or type(exc).__name__}: {one_line(exc.filename, 120)}"
    if exc.errno in WRITE_ERRORS:
        return f"cannot write standard output: {exc.strerror}"
    return str(exc.strerror or exc)


def positive(name: str, lo: int = 1, hi: int = 4096):
    """An argparse type: an integer in [lo, hi]."""

    def parse(text: str) -> int:
        if not ASCII_INTEGER.fullmatch(text):  # ASCII decimal digits only: int() would also take '1_0', '٦', '６'
            raise argparse.ArgumentTypeError(f"{name} must be an integer (ASCII digits), got {shortened(repr(text))}")
        value = bounded_int(text)  # a 5000-digit number is out of range, never passed to int()
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be between {lo} and {hi}, got {shortened(text)}")
        return value

    parse.bounds = (lo, hi)  # the accepted range, read by tests and docs/cli.md
    parse.__name__ = name  # argparse's fallback message names the type: the option, never an internal name
    return parse


def span(name: str, lo: int, hi: int):
    """An argparse type: "A..B" or "A" as a range within [lo, hi]."""

    def parse(text: str) -> range:
        parts = text.split("..")
        a, b = [bounded_int(p) if ASCII_INTEGER.fullmatch(p) else None for p in (parts[0], parts[-1])] if len(parts) <= 2 else [None, None]
        if a is None or b is None or not lo <= a <= b <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be A..B with {lo} <= A <= B <= {hi} (ASCII digits), got {shortened(repr(text))}")
        return range(a, b + 1)

    parse.bounds = (lo, hi)
    parse.__name__ = name
    parse.is_span = True
    return parse


def rationals(text: str) -> list[Fraction]:
    """An argparse type: comma-separated rationals."""
    try:
        return [Fraction(x) for x in text.split(",")]
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected comma-separated rationals like 1,1/2,1/4, got {shortened(repr(text))}") from None


def write_doc(doc: dict, out: str | None) -> None:
    """Write a certificate canonically (atomically) to a file, or to stdout for None or '-'."""
    text = canonical_json(doc)
    if out is None or out == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(out, text)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None


def read_text(path: str) -> str:
    """A user's file as text, or a UserError naming it."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def limits_from(items: list[str]) -> Limits:
    """Checker limits with NAME=INTEGER overrides."""
    try:
        return parse_overrides(items)
    except ValueError as exc:
        raise UserError(f"bad --limit (NAME=INTEGER): {exc}") from None


def json_safe(obj):
    """obj as JSON values by the one rule of every machine-readable form (docs/cli.md,
    "Machine-readable output"): integers stay JSON integers at every size (exact, never
    strings, as in ``to_json()``), rationals are strings "p/q", NaN and infinities null."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, int):
        return obj
    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, float) and obj != obj or obj in (float("inf"), float("-inf")):
        return None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def emit_json(obj, stream=None) -> None:
    """One JSON object on one line (sorted keys) on stdout: the `--json` output of a command;
    a stream of results calls this once per record (JSON Lines)."""
    import json

    (stream or sys.stdout).write(json.dumps(json_safe(obj), sort_keys=True, allow_nan=False) + "\n")


def add_json(p, what: str = "the result") -> None:
    """The shared --json flag."""
    p.add_argument("--json", action="store_true", help=f"print {what} as one JSON object (integers exact at every size)")


def size_options(p, m: tuple[int, int], n: tuple[int, int], m_note: str = "", n_note: str = "", n_default: int | None = None) -> None:
    """--m (token bits) and --n (input length): integers in the closed ranges m and n, named in
    the help before the note; --m is required, --n too unless it has a default."""
    p.add_argument("--m", type=positive("--m", *m), required=True, help=f"token bits, {m[0]}..{m[1]}{m_note}")
    p.add_argument("--n", type=positive("--n", *n), required=n_default is None, default=n_default, help=f"input length, {n[0]}..{n[1]}{n_note}")


WITNESS_VARIANT = "which heads the witness family covers (default position-independent)"


def variant_option(p, what: str = "default position-independent") -> None:
    """--variant: the head class, one of VARIANTS (default position-independent)."""
    p.add_argument("--variant", choices=VARIANTS, default="position-independent", help=what)


def output_options(p, output: str, summary: str, required: bool = False) -> None:
    """-o/--output FILE (output: what is written there) and the shared --json flag (summary:
    what it prints), in this order."""
    p.add_argument("-o", "--output", required=required, help=output)
    add_json(p, summary)


def one_stdout(args) -> None:
    """--json and `-o -` would both write to standard output: refuse the pair."""
    if getattr(args, "json", False) and getattr(args, "output", None) == "-":
        raise UserError("--json and -o - both write to standard output: give -o FILE")


def read_input(path: str) -> str:
    """A user's file as text; '-' reads standard input."""
    if path == "-":
        try:
            return sys.stdin.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"cannot read standard input: {exc}") from None
    return read_text(path)


def jobs_option(parser) -> None:
    """--jobs N: worker processes (default: all cores); results do not depend on N."""
    parser.add_argument("--jobs", type=positive("--jobs", 1, 256), default=default_jobs(), metavar="N", help="worker processes, 1..256 (default: all cores); the output does not depend on N")


def scheduler_option(parser) -> None:
    """--scheduler ADDRESS: run the parallel work on a Dask cluster (kernelbounds[dask])."""
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help=f"run the work on a dask.distributed scheduler (tcp://HOST:8786), or '{LOCAL}' for a LocalCluster of --jobs workers; needs pip install 'kernelbounds[dask]'; the output does not depend on it",
    )


def scheduled(call):
    """Run call(); a Dask executor that cannot be used (extra missing, scheduler unreachable)
    becomes a UserError (one line, exit 2)."""
    try:
        return call()
    except SchedulerError as exc:
        raise UserError(str(exc)) from None


def certificates_option(parser) -> None:
    """--certificates DIR: a user folder of certificates, each checked before its claim is used."""
    parser.add_argument(
        "--certificates",
        metavar="DIR",
        default=None,
        help="also use the certificates in DIR (default: $KERNELBOUNDS_CERTIFICATES): each *.json file is checked by the checker first; a rejected file is named in a warning and ignored",
    )


def resolve_certificate(name: str) -> str:
    """A certificate file argument as given, or the shipped certificate it names when no
    such local file exists (kernelbounds.release.shipped.local_or_shipped), said on stderr in one line."""
    from ..release.shipped import local_or_shipped

    found, shipped = local_or_shipped(name)
    if shipped:
        say(f"kernelbounds: no file {name} here: using the shipped certificate {found}")
    return found
