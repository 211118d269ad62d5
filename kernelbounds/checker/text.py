"""Every piece of text the checker prints goes through here (docs/soundness.md, "Output").

* :func:`show` formats a number cheaply whatever its size: an integer of more than
  ``SHOWN_DIGITS`` digits becomes ``<12345 digits: 314159265358...>`` (the exact digit
  count and the exact leading digits, from one short division: no int-to-str conversion
  of the whole number, so Python's 4300-digit limit and quadratic conversion never
  decide a verdict).
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
    """(number of decimal digits, leading PREFIX_DIGITS digits) of x > 0, both exact.

    A float logarithm of the top 64 bits locates the digit count within one; then
    q = x // 10^(e) with e = that estimate - 16 has 15 to 17 digits, and x has
    e + len(str(q)) digits beginning with those of q.  The division is linear in the size
    of x (its quotient is short) and 10^e costs about one multiplication of x's size, so
    no number is ever converted to a decimal string whole."""
    b = x.bit_length()
    top = x >> max(b - 64, 0)
    estimate = int(log10(top) + max(b - 64, 0) * log10(2)) + 1
    e = max(estimate - 16, 0)
    q = str(x // 10**e)
    return e + len(q), q[:PREFIX_DIGITS]


def show_int(x: int) -> str:
    if x.bit_length() <= 3 * SHOWN_DIGITS:  # at most 55 digits: shown whole
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
