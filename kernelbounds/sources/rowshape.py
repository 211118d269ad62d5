"""The shape of a stored source's row in COMPUTED (docs/index-format.md, "Completeness"):
the small checks each stored source's ``shape`` is made of.  A problem is a pair (JSON
pointer, reason); nothing here rebuilds a row or believes its numbers (that is
``certificates --verify``'s rebuild)."""

from __future__ import annotations

Problem = tuple[str, str]  # (JSON pointer, reason)
VERDICT = {"sha256", "claim"}  # the checker's verdict on a certificate: its sha256 and claim


def show(x) -> str:
    """A stored value as a reason may quote it (long numbers shortened, controls escaped)."""
    from ..checker.text import escape, show as shown

    return escape(shown(x))


def fields(row, expected: set[str], where: str) -> list[Problem]:
    """A row that is an object with exactly the format's fields."""
    if not isinstance(row, dict):
        return [(where, "not a JSON object")]
    if row.keys() == expected:
        return []
    return [(f"{where}/{k}", "missing") for k in sorted(expected - set(row))] + [(f"{where}/{k}", "not a field of the format") for k in sorted(set(row) - expected, key=str)]


def whole(x, least: int, most: int, where: str, what: str) -> list[Problem]:
    """A whole number in least..most."""
    if type(x) is not int or not least <= x <= most:
        return [(where, f"{what} is not a whole number in {least}..{show(most)}: {show(x)}")]
    return []


def sha(row: dict, where: str) -> list[Problem]:
    """A verdict's sha256 is a string (its digits and claim are checked where they are used)."""
    return [] if isinstance(row["sha256"], str) else [(f"{where}/sha256", "not a string")]


def verdict_row(row, where: str, m: int = 0, n: int = 0, variant: str = "", cell: dict | None = None) -> list[Problem]:
    """The shape of a row this module knows no more of (a stored source's default): null, or
    an object with a checker verdict (its sha256 a string; its claim checked where used)."""
    if row is None:
        return []
    if not isinstance(row, dict) or not VERDICT <= set(row):
        return [(where, "not a row with a checker verdict (sha256, claim)")]
    return sha(row, where)
