"""Reading a user's command-line arguments for one-line messages (the command line's only:
neither reading of the trusted base follows it, docs/soundness.md)."""

from __future__ import annotations

from .text import escape


def shortened(text: str, head: int = 12, tail: int = 6) -> str:
    """A user's argument for a one-line message, escaped: whole when short, else its first
    ``head`` and last ``tail`` characters and its length (a 5000-digit number is not echoed)."""
    if len(text) <= head + tail + 8:
        return escape(text)
    return f"{escape(text[:head])}...{escape(text[-tail:])} ({len(text)} characters)"


def bounded_int(digits: str, most: int = 30) -> int | None:
    """The value of an ASCII integer (optional '-', decimal digits) with at most ``most``
    significant digits, else None (beyond every option's range): leading zeros are dropped
    before int(), which refuses more than 4300 digits."""
    negative = digits.startswith("-")
    body = digits[negative:].lstrip("0") or "0"
    if len(body) > most:
        return None
    return -int(body) if negative else int(body)
