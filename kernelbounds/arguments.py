"""The API's arguments, validated exactly as the command line validates its options
(docs/api.md, "Arguments"): the same ranges, the same choices, one ValueError line.

* an integer argument is an ``int`` and not a ``bool`` (``kb.bound(True, 3)`` is refused,
  as ``--m True`` is), within the command's range (``bound``: m in 1..256, n in 1..64);
* a choice (variant, kernel) is one of its strings;
* a folder (``certificates``) is None, a ``str`` or an ``os.PathLike``;
* anything else, lists and other unhashable values included, is a ValueError naming the
  argument, never a TypeError from a cache lookup deeper down.
The command line's parser reads ASCII decimal digits only (``ascii_integer``), so
``--m 1_0``, ``--m ٦`` and ``--m ６`` are usage errors there.
"""

from __future__ import annotations

import os
import re

from .errors import InvalidArgument
from .checker.text import escape

ASCII_INTEGER = re.compile(r"-?[0-9]+")  # what the command line reads as an integer: no '_', '+', spaces or non-ASCII digits
from .vocabulary import KERNELS, VARIANTS  # noqa: F401 (re-exported)
MAX_N = 64  # the largest input length any command takes (--n 1..64)
BOUND_M = (1, 256)  # bound / kb.bound: the lower side's code search handles m up to 256
UPPER_M = (1, 64)  # upper / kb.upper
WITNESS_M, WITNESS_N = (2, 256), (3, 64)  # witness / kb.witness
TARGET_RANK = (2, 10**6)  # witness --target-rank / kb.witness


def ascii_integer(text: str) -> int | None:
    """The integer written in ASCII decimal digits (with an optional '-'), else None:
    Python's int() also reads '1_0', ' 6', Arabic-Indic '٦' and fullwidth '６'."""
    return int(text) if isinstance(text, str) and ASCII_INTEGER.fullmatch(text) else None


def _shown(value: object) -> str:
    text = escape(repr(value))
    return text if len(text) <= 60 else f"{text[:60]}... ({len(text)} characters)"


def whole(name: str, value: object, lo: int, hi: int) -> int:
    """value if it is an int (not a bool) in lo..hi, else ValueError naming the argument."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidArgument(f"{name} must be an integer in {lo}..{hi}, not {_shown(value)}")
    return value


def choice(name: str, value: object, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InvalidArgument(f"{name} must be one of {', '.join(options)}, not {_shown(value)}")
    return value


def folder(value: object) -> str | None:
    """A user folder argument: None, or a str / os.PathLike, returned as a str."""
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise InvalidArgument(f"certificates must be a folder name (str or os.PathLike) or None, not {_shown(value)}")
    return value


def bound_args(m: object, n: object, variant: object, kernel: object = "nonnegative", certificates: object = None, m_range: tuple[int, int] = BOUND_M) -> str | None:
    """Validate the arguments of kb.bound / kb.upper as `kernelbounds bound` does; the
    folder as a str (or None)."""
    whole("m", m, *m_range)
    whole("n", n, 1, MAX_N)
    choice("variant", variant, VARIANTS)
    choice("kernel", kernel, KERNELS)
    return folder(certificates)
