"""`bound` in text mode names the file that decides each side, a user's certificate included."""

from dataclasses import replace

from kernelbounds import api
from kernelbounds.cli.bound import text_lines


def _named(lines, name):
    return [line for line in lines if f"certificate {name}" in line]


def test_a_user_file_deciding_the_nonnegative_side_at_the_same_value_is_named():
    b = api.bound(12, 3)
    assert b.upper < b.upper_nonnegative  # shipped: the any-features family is smaller
    mine = "/home/someone/certs/upper-nonnegative-m12-n3-mine.json"
    nonneg = dict(b.sides["upper"], certificate=mine, nonnegative_features=True)
    improved = replace(b, upper_nonnegative=b.upper, sides={**b.sides, "upper_nonnegative": nonneg})
    lines = text_lines(improved)
    assert len(_named(lines, mine)) == 1 and lines[3].startswith("  upper, nonnegative features:")


def test_one_file_deciding_both_upper_sides_is_named_once():
    b = api.bound(3, 3)
    assert b.sides["upper"]["certificate"] == b.sides["upper_nonnegative"]["certificate"] and b.upper == b.upper_nonnegative
    lines = text_lines(b)
    assert not any(line.startswith("  upper, nonnegative features:") for line in lines)
    if b.sides["upper"]["certificate"]:
        assert len(_named(lines, b.sides["upper"]["certificate"])) == 1


def test_every_side_with_a_file_is_named_in_the_text():
    for m, n in ((4, 3), (12, 3), (24, 3), (6, 4)):
        b = api.bound(m, n)
        lines = text_lines(b)
        for key in ("lower", "upper", "upper_nonnegative"):
            cert = b.sides[key]["certificate"]
            assert cert is None or _named(lines, cert), (m, n, key)


def test_strings_from_a_user_file_are_escaped_in_the_text():
    """A user file's path and a code name (free labels of the file) print as one escaped
    line each: no ESC, no newline reaches the terminal."""
    b = api.bound(100, 3)
    path = "/tmp/evil\ndir/\x1b[31mlower.json"
    hostile = replace(b, code="dode\x1b[31mcads\nforged line", sides={**b.sides, "lower": dict(b.sides["lower"], certificate=path)})
    lines = text_lines(hostile)
    text = "\n".join(lines)
    assert "\x1b" not in text and len(text.splitlines()) == len(lines)
    assert any("\\x1b[31mlower.json" in line for line in lines) and any("dode\\x1b[31mcads" in line and "forged line" in line for line in lines)
