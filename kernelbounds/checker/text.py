"""Every piece of text the checker prints goes through here (docs/soundness.md, "Output").

* :func:`show` formats a number cheaply whatever its size: an integer of more than
  ``SHOWN_DIGITS`` digits becomes ``<12345 digits: 31415926535...>``, built from its bit
  length and its leading bits (no int-to-str conversion of the whole number, so Python's
  4300-digit limit and quadratic conversion never decide a verdict).
* :func:`escape` makes any string one printable line: control characters (newlines,
  ANSI escapes), lone surrogates and other non-printable characters become ``\\xNN``,
  ``\\uNNNN`` or ``\\UNNNNNNNN``; a backslash becomes ``\\\\``.  ``Verdict.render``
  applies it to every part of a verdict line (path, pointer, reason, summary, routes),
  so text taken from a file can never start a second line or break the terminal.
"""

from __future__ import annotations

from fractions import Fraction
from math import log10

SHOWN_DIGITS = 60  # integers longer than this are abbreviated
PREFIX_DIGITS = 12
MAX_SHOWN_CHARS = 2000  # any single shown value (a list, a string) is cut beyond this


def _digits(x: int) -> tuple[int, str]:
    """(number of decimal digits, leading digits) of x > 0, from its top 64 bits.

    The leading digits come from a float logarithm, good to about 12 digits: they only
    report, they never decide."""
    b = x.bit_length()
    if b <= 190:
        s = str(x)
        return len(s), s[:PREFIX_DIGITS]
    top = x >> (b - 64)
    lg = log10(top) + (b - 64) * log10(2)
    count = int(lg) + 1
    lead = 10 ** (lg - int(lg) + PREFIX_DIGITS - 1)
    return count, str(int(lead))[:PREFIX_DIGITS]


def show_int(x: int) -> str:
    if x.bit_length() <= 3 * SHOWN_DIGITS:  # < about 54 digits: exact
        return str(x)
    sign = "-" if x < 0 else ""
    count, lead = _digits(abs(x))
    if count <= SHOWN_DIGITS:
        return str(x)
    return f"{sign}<{count} digits: {lead}...>"


def show(x: object) -> str:
    """A short, exact-when-small rendering of an int, Fraction, bool, str or container."""
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, int):
        return show_int(x)
    if isinstance(x, Fraction):
        return show_int(x.numerator) if x.denominator == 1 else f"{show_int(x.numerator)}/{show_int(x.denominator)}"
    if isinstance(x, str):  # quoted, not escaped here: Verdict.render escapes the whole line once
        return f"'{x}'" if len(x) <= MAX_SHOWN_CHARS else f"'{x[:MAX_SHOWN_CHARS]}...' ({len(x)} characters)"
    if isinstance(x, (list, tuple)):
        parts, size = [], 0
        for item in x:
            part = show(item)
            size += len(part) + 2
            if size > MAX_SHOWN_CHARS:
                parts.append(f"... ({len(x)} items)")
                break
            parts.append(part)
        body = ", ".join(parts)
        return f"({body}{',' if len(x) == 1 else ''})" if isinstance(x, tuple) else f"[{body}]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in list(x.items())[:50]) + (", ..." if len(x) > 50 else "") + "}"
    if x is None:
        return "null"
    return escape(type(x).__name__)


def escape(text: str) -> str:
    """One printable line: every non-printable character (and the backslash) escaped."""
    if text.isprintable() and "\\" not in text:
        return text
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)
