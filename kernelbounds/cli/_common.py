"""Shared pieces of the command-line front end: parsing helpers, output, user errors."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from ..certificate import canonical_json, write_atomic
from ..checker import Limits
from ..checker.limits import parse_overrides
from ..parallel import default_jobs

CONTRADICTION = 5  # exit code: an exact check contradicts the theory (THEORY.md)
VARIANTS = ["position-independent", "position-dependent", "causal"]


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class UserError(Exception):
    """A mistake in the user's request: one clear line, exit code 2."""


def positive(name: str, lo: int = 1, hi: int = 4096):
    """An argparse type: an integer in [lo, hi]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be between {lo} and {hi}, got {value}")
        return value

    return parse


def span(name: str, lo: int, hi: int):
    """An argparse type: "A..B" or "A" as a range within [lo, hi]."""

    def parse(text: str) -> range:
        parts = text.split("..")
        try:
            a, b = (int(parts[0]), int(parts[-1])) if len(parts) <= 2 else (None, None)
        except ValueError:
            a = b = None
        if a is None or not lo <= a <= b <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be A..B with {lo} <= A <= B <= {hi}, got {text!r}")
        return range(a, b + 1)

    return parse


def rationals(text: str) -> list[Fraction]:
    """An argparse type: comma-separated rationals."""
    try:
        return [Fraction(x) for x in text.split(",")]
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected comma-separated rationals like 1,1/2,1/4, got {text!r}") from None


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


def jobs_option(parser) -> None:
    """--jobs N: worker processes (default: all cores); results do not depend on N."""
    parser.add_argument("--jobs", type=positive("--jobs", 1, 256), default=default_jobs(), metavar="N", help="worker processes (default: all cores); output does not depend on N")
