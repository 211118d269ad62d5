"""Numbers in messages, whatever their size: the generator side's one helper.

A head file may hold rationals of 4096-digit numerators and denominators (docs/head-format-v1.md),
and exact arithmetic on them makes larger ones: a least denominator, a worst error, an
output.  Python refuses to convert an integer of more than 4300 digits to a string (a
ValueError: its conversion is quadratic), and ``float()`` of a rational beyond 1e308
overflows, so no message may format such a number directly.  Every message of the
generator side goes through here:

* :func:`shown`: exact (``"3/7"``) when numerator and denominator have at most
  ``SHOWN_BITS`` bits (about 60 digits), else its magnitude, ``"~1.23457e+4512 (a ratio of
  15000- and 2000-bit integers)"``;
* :func:`approx`: the magnitude alone, like ``f"{float(x):.6g}"`` but for any size;
* :func:`to_float`: ``float(x)``, or an infinity of its sign beyond the float range.

The magnitude comes from ``math.log10`` of each integer (linear in its size, no decimal
conversion).  The checker prints its own numbers through ``checker.text.show`` (the
trusted base imports nothing from here).
"""

from __future__ import annotations

import math
from numbers import Rational

SHOWN_BITS = 200  # at most 61 decimal digits: shown exactly


def _parts(x) -> tuple[int, int] | None:
    if isinstance(x, bool) or not isinstance(x, Rational):
        return None
    return int(x.numerator), int(x.denominator)


def approx(x, digits: int = 6) -> str:
    """x to `digits` significant digits (``%g`` style; a float, int or rational of any size)."""
    parts = _parts(x)
    if parts is None:
        return f"{x:.{digits}g}" if isinstance(x, float) else str(x)
    p, q = parts
    if p.bit_length() <= 1000 and q.bit_length() <= 1000:  # within the float range
        return f"{p / q:.{digits}g}"
    exponent = math.log10(abs(p)) - math.log10(q)
    e = math.floor(exponent)
    mantissa = round(10 ** (exponent - e), digits - 1)
    if mantissa >= 10:
        mantissa, e = mantissa / 10, e + 1
    return f"{'-' if p < 0 else ''}{mantissa:.{digits - 1}f}e{e:+d}"


def shown(x) -> str:
    """x exactly when short (``SHOWN_BITS``), else ``~magnitude`` and the sizes in bits."""
    parts = _parts(x)
    if parts is None:
        return approx(x) if isinstance(x, float) else str(x)
    p, q = parts
    if p.bit_length() <= SHOWN_BITS and q.bit_length() <= SHOWN_BITS:
        return str(p) if q == 1 else f"{p}/{q}"
    sizes = f"a {p.bit_length()}-bit integer" if q == 1 else f"a ratio of {p.bit_length()}- and {q.bit_length()}-bit integers"
    return f"~{approx(x)} ({sizes})"


def to_float(x) -> float:
    """float(x), or +-inf when x is beyond the float range (never OverflowError)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf
