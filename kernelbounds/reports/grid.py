"""The two-sided table as a grid: m down, n across, one block per variant and kernel class.

A cell is "lower-upper" (upper with any features), or one number when the sides meet,
followed by the footnote letters of its two methods (the key: letter, method, THEORY
section).  A number wider than ``width`` digits is written 2^x.y with the exponent rounded
outward (down for a lower side, up for an upper side), so the shown cell is still a true
statement; ``exact=True`` writes every number in full.  Every value is the hub's answer
(kernelbounds.hub.answer.bounds, through :func:`kernelbounds.reports.report.row_of`):
this module only lays the answers out, as markdown, CSV, JSON or HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from string import ascii_lowercase

WIDTH = 5  # digits shown in full; wider numbers as 2^x.y
DASH = "-"  # between the two sides (ASCII: files and terminals of any encoding; an en dash in HTML)


def log2_text(value: int, up: bool) -> str:
    """2^x.y with x.y = log2(value) rounded to one decimal outward (``up``: to the next
    tenth above, else below), decided exactly: 2^(t/10) <= value iff 2^t <= value^10."""
    t = 10 * (value.bit_length() - 1)
    while 2 ** (t + 1) <= value**10:
        t += 1
    if up and 2**t < value**10:
        t += 1
    return f"2^{t // 10}.{t % 10}"


def number(value: int, up: bool, width: int = WIDTH, exact: bool = False) -> str:
    """``value`` in full when it has at most ``width`` digits (or ``exact``), else 2^x.y."""
    return str(value) if exact or value < 10**width else log2_text(value, up)


@dataclass(frozen=True)
class Cell:
    """One (m, n) of a block: the hub's row and the key letters of its two methods."""

    row: object  # report.Row
    lower_key: str
    upper_key: str

    def text(self, width: int = WIDTH, exact: bool = False) -> str:
        r = self.row
        if r.exact:
            value = number(r.lower, False, width, exact)
        else:
            value = f"{number(r.lower, False, width, exact)}{DASH}{number(r.upper, True, width, exact)}"
        keys = self.lower_key if self.lower_key == self.upper_key else self.lower_key + self.upper_key
        return f"{value} {keys}"


@dataclass(frozen=True)
class Block:
    """The grid of one variant and kernel class: cells[(m, n)], and the key of methods."""

    variant: str
    kernel: str
    ms: tuple[int, ...]
    ns: tuple[int, ...]
    cells: dict
    key: dict  # letter -> (method, THEORY section)

    @property
    def title(self) -> str:
        return f"{self.variant}, {self.kernel} kernel"


def letters():
    """a, b, ..., z, aa, ab, ...: footnote letters."""
    for size in range(1, 4):
        for i in range(len(ascii_lowercase) ** size):
            word, j = "", i
            for _ in range(size):
                word, j = ascii_lowercase[j % 26] + word, j // 26
            yield word


def block(ms, ns, variant: str = "position-independent", kernel: str = "nonnegative", jobs: int | None = 1, certificates: str | None = None) -> Block:
    """The grid of the hub's answers over ms × ns for one variant and kernel class."""
    from ..hub.answer import table
    from .report import row_of

    answers = table(list(ms), list(ns), variant, jobs=jobs, certificates=certificates, kernel=kernel)
    found: dict[tuple[str, str], str] = {}
    names = letters()

    def letter(side) -> str:
        key = (side.method, side.theory)
        if key not in found:
            found[key] = next(names)
        return found[key]

    cells = {}
    for a in answers:  # m-major: letters in reading order
        cells[(a.m, a.n)] = Cell(row_of(a), letter(a.lower), letter(a.upper))
    return Block(variant, kernel, tuple(ms), tuple(ns), cells, {v: k for k, v in found.items()})


# ---------------------------------------------------------------- renderings


def key_lines(b: Block) -> list[str]:
    from .glossary import labelled

    return [f"{letter}: {method} ({labelled(theory)})" for letter, (method, theory) in b.key.items()]


def markdown(b: Block, width: int = WIDTH, exact: bool = False) -> str:
    """The block as a markdown table (m down, n across), its key below."""
    head = "| m | " + " | ".join(f"n = {n}" for n in b.ns) + " |\n" + "|---:|" + "---:|" * len(b.ns) + "\n"
    body = "".join(f"| {m} | " + " | ".join(b.cells[(m, n)].text(width, exact) for n in b.ns) + " |\n" for m in b.ms)
    return f"{b.title}: lower{DASH}upper (any features), one number when exact; letters: the methods of the lower and the upper side\n\n{head}{body}\n" + "".join(
        f"- {line}\n" for line in key_lines(b))


def text(b: Block, width: int = WIDTH, exact: bool = False) -> str:
    """The block as aligned plain text for a terminal (m down, n across)."""
    cols = [[f"n = {n}"] + [b.cells[(m, n)].text(width, exact) for m in b.ms] for n in b.ns]
    mcol = ["m"] + [str(m) for m in b.ms]
    widths = [max(map(len, mcol))] + [max(map(len, c)) for c in cols]
    lines = [" ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in zip(mcol, *cols, strict=True)]
    return f"{b.title}: lower{DASH}upper (any features), one number when exact\n" + "\n".join(lines) + "\n" + "".join(f"  {line}\n" for line in key_lines(b))


def csv(blocks: list[Block], width: int = WIDTH, exact: bool = False) -> str:
    """One CSV row per (variant, kernel, m): the cells across n; then one row per key letter
    (variant, kernel, "key", letter, method, THEORY section)."""
    import csv as csvlib
    import io

    buf = io.StringIO()
    writer = csvlib.writer(buf, lineterminator="\n")
    ns = blocks[0].ns if blocks else ()
    writer.writerow(["variant", "kernel", "m"] + [f"n={n}" for n in ns])
    for b in blocks:
        for m in b.ms:
            writer.writerow([b.variant, b.kernel, m] + [b.cells[(m, n)].text(width, exact) for n in b.ns])
    for b in blocks:
        for letter, (method, theory) in b.key.items():
            writer.writerow([b.variant, b.kernel, "key", letter, method, theory])
    return buf.getvalue()


def to_json(b: Block, width: int = WIDTH, exact: bool = False) -> dict:
    """The block as one JSON object (kernelbounds/schemas/table-grid.schema.json): each
    cell's text and its exact values, fields as in `bound --json`."""
    from .report import row_dict

    return {
        "variant": b.variant, "kernel": b.kernel, "m": list(b.ms), "n": list(b.ns),
        "key": {letter: {"method": method, "theory": theory} for letter, (method, theory) in b.key.items()},
        "cells": [row_dict(c.row) | {"text": c.text(width, exact), "lower_key": c.lower_key, "upper_key": c.upper_key} for c in b.cells.values()],
    }


def cell_file(variant: str, kernel: str, m: int, n: int) -> str:
    """The file name of a cell's page in the site."""
    return f"cell-{variant}-{kernel}-m{m}-n{n}.html"


def html(b: Block, width: int = WIDTH, exact: bool = False, links: bool = False) -> str:
    """The block as an HTML table (a fragment); each cell's title holds its exact values,
    and (``links``) links to the cell's page."""
    rows = []
    for m in b.ms:
        tds = []
        for n in b.ns:
            c = b.cells[(m, n)]
            r = c.row
            title = f"m = {m}, n = {n}: {r.lower} <= r* <= {r.upper}" + (" (exact)" if r.exact else "")
            body = escape(c.text(width, exact)).replace(DASH, "&ndash;")
            if links:
                body = f'<a href="{escape(cell_file(b.variant, b.kernel, m, n))}">{body}</a>'
            tds.append(f'<td class="{"exact" if r.exact else "open"}" title="{escape(title)}">{body}</td>')
        rows.append(f"<tr><th>{m}</th>{''.join(tds)}</tr>")
    head = "<tr><th>m</th>" + "".join(f"<th>n = {n}</th>" for n in b.ns) + "</tr>"
    key = "".join(f"<li><b>{escape(line.split(':', 1)[0])}</b>:{escape(line.split(':', 1)[1])}</li>" for line in key_lines(b))
    return (f'<h2 id="{escape(b.variant)}-{escape(b.kernel)}">{escape(b.title)}</h2>\n<table class="grid">\n<thead>{head}</thead>\n<tbody>\n'
            + "\n".join(rows) + f"\n</tbody>\n</table>\n<ul class=\"key\">{key}</ul>\n")


# ---------------------------------------------------------------- generated docs grids

DOCS_MARK = re.compile(r"(<!-- kernelbounds grid (--m \d+\.\.\d+ --n \d+\.\.\d+(?: --variant [a-z-]+)?(?: --kernel [a-z-]+)?) -->\n)(.*?)(<!-- end of generated grid -->)", re.S)


def render_docs(text: str, jobs: int | None = 1) -> str:
    """The text with every generated grid (between a `<!-- kernelbounds grid --m A..B --n C..D
    [--variant V] [--kernel K] -->` line and `<!-- end of generated grid -->`) rendered anew."""

    def one(match: re.Match) -> str:
        parts = match.group(2).split()
        args = dict(zip(parts[::2], parts[1::2], strict=True))
        (a, b), (c, d) = (map(int, args[f].split("..")) for f in ("--m", "--n"))
        blk = block(range(a, b + 1), range(c, d + 1), args.get("--variant", "position-independent"), args.get("--kernel", "nonnegative"), jobs=jobs)
        return match.group(1) + markdown(blk) + match.group(4)

    return DOCS_MARK.sub(one, text)
