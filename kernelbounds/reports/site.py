"""`kernelbounds site DIR`: the answers as a static site of plain HTML (no server, no
JavaScript; it opens from the file system).

index.html holds the grids (one block per variant and kernel class, kernelbounds.reports.grid),
each cell linking to its page; a cell's page states both sides (value, method in words,
THEORY section with a gloss, the certificate with its sha256 and how to check it, or the
rebuild command of a computed side with the sha256 the checker accepted), the restriction
closure in m where it carries a side, the ceiling of L3/L4 at that (m, n), and every variant
and kernel class of the same (m, n) side by side.  The cited shipped certificates are copied
into certificates/ for download (their bytes verified against the shipped index); the plot
(matplotlib, when it imports) is plot.png.  Every number is the hub's answer."""

from __future__ import annotations

from html import escape
from pathlib import Path

from ..certificate import replacing, write_atomic
from ..errors import InvalidArgument
from . import grid
from .glossary import big, file_note, labelled, variant_note

MARKER = ".kernelbounds-site"  # a folder holding this file was written by this module: it may be rewritten
STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:80em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right;white-space:nowrap}td.exact{background:#e4f4e4}
td.open{background:#fff}th{background:#eee}a{text-decoration:none}code{background:#f4f4f4;padding:0 2px}
.side{border:1px solid #ccc;padding:.5em 1em;margin:.5em 0}.key{columns:2;font-size:90%}"""


def classes() -> list[tuple[str, str]]:
    """Every (variant, kernel class) the hub answers (THEORY L5, L8)."""
    from ..vocabulary import KERNELS, VARIANTS

    return [(v, k) for v in VARIANTS for k in KERNELS if not (k == "signed-any-denominator" and v == "position-dependent")]


def page(title: str, body: str, up: str = "") -> str:
    """One HTML page (ASCII: other characters as references)."""
    nav = f'<p><a href="{up}index.html">all grids</a></p>\n' if up is not None else ""
    text = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n'
            f"<body>\n{nav}<h1>{escape(title)}</h1>\n{body}\n</body>\n</html>\n")
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _side_html(key: str, name: str, side: dict, variant: str, m: int, certificates: set[str]) -> str:
    """One side of a cell: value, method, THEORY, certificate or rebuild command, notes."""
    rows = [f"<p><b>{escape(big(side['value']))}</b> by {escape(side['method'])} ({escape(labelled(side['theory']))})</p>"]
    verdict = side.get("verdict") or {}
    if side["certificate"]:
        certificates.add(side["certificate"])
        rows.append(f'<p>certificate: <a href="certificates/{escape(side["certificate"])}">{escape(side["certificate"])}</a>'
                    f" (sha256 <code>{escape(verdict.get('sha256', ''))}</code>); check it with "
                    f"<code>kernelbounds check certificates/{escape(side['certificate'])}</code> in this folder (exit 0: VALID)</p>")
    elif side["rebuild"]:
        sha = f" (the checker accepted the certificate with sha256 <code>{escape(verdict['sha256'])}</code>)" if verdict.get("sha256") else ""
        rows.append(f"<p>computed: rebuild its certificate with <code>{escape(side['rebuild'])}</code>{sha}, then "
                    "<code>kernelbounds check FILE</code></p>")
    else:
        rows.append("<p>no certificate is needed</p>")
    source = side.get("from_m")
    if source not in (None, m):
        rows.append(f"<p>restriction closure in m: the certificate is at m = {source}; r* is nondecreasing in m (THEORY U5: restrict a head to "
                    f"the tokens whose top bits are 0), so its {'lower' if name == 'lower' else 'upper'} bound holds at m = {m}</p>")
    notes = [side["detail"], variant_note(variant, side.get("certificate_variant"), "lower" if name == "lower" else "upper"), file_note(key, side["certificate"])]
    if side.get("least_of_family"):
        notes.append(f"least rank of its family (complement basis, affine readout), proved by {side['least_of_family']}")
    rows += [f"<p>{escape(note)}</p>" for note in notes if note]
    return f'<div class="side"><h2>{escape(name)}</h2>\n' + "\n".join(rows) + "</div>\n"


def cell_page(answers: dict, variant: str, kernel: str, m: int, n: int, certificates: set[str]) -> str:
    """The page of one cell (answers: (variant, kernel, m, n) -> the bound's to_json())."""
    b = answers[(variant, kernel, m, n)]
    head = f"<p>{escape(big(b['lower']))} &lt;= r* &lt;= {escape(big(b['upper']))}" + (" (exact)" if b["exact"] else "") + "</p>\n"
    if b["ceiling"] is not None:
        head += (f"<p>ceiling of L3/L4 at m = {m}, n = {n}: no code or direct-sum certificate can prove more than r &gt;= {escape(big(b['ceiling']))} "
                 "(THEORY &quot;The ceiling of L3/L4 (sharp form)&quot;)</p>\n")
    sides = "".join(_side_html(key, label, b["sides"][key], variant, m, certificates)
                    for key, label in (("lower", "lower"), ("upper", "upper (any features)"), ("upper_nonnegative", "upper (nonnegative features)")))
    others = ["<tr><th>variant</th><th>kernel class</th><th>lower</th><th>upper (any)</th><th>upper (nonnegative)</th></tr>"]
    for v, k in classes():
        o = answers.get((v, k, m, n))
        if o is None:
            continue
        link = f'<a href="{escape(grid.cell_file(v, k, m, n))}">{escape(v)}</a>'
        others.append(f"<tr><td>{link}</td><td>{escape(k)}</td><td>{escape(big(o['lower']))}</td><td>{escape(big(o['upper']))}</td><td>{escape(big(o['upper_nonnegative']))}</td></tr>")
    same = "<h2>the same (m, n), every variant and kernel class</h2>\n<table>" + "\n".join(others) + "</table>\n"
    return page(f"r*(m = {m}, n = {n}), {variant}, {kernel} kernel", head + sides + same, "")


def _prepare(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise InvalidArgument(f"{folder} is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).is_file():
        raise InvalidArgument(f"{folder} is not empty and holds no site written by kernelbounds: give a new or empty folder")
    (folder / "certificates").mkdir(parents=True, exist_ok=True)
    write_atomic(folder / MARKER, "written by kernelbounds site\n")


def write(folder, ms, ns, jobs: int | None = 1, plot: bool = True) -> dict:
    """Write the site into ``folder`` (new, empty, or a site written before); returns counts."""
    from ..hub import index

    folder = Path(folder)
    _prepare(folder)
    blocks = [grid.block(ms, ns, v, k, jobs=jobs) for v, k in classes()]
    from ..api import bound

    answers = {(b.variant, b.kernel, m, n): bound(m, n, b.variant, kernel=b.kernel).to_json() for b in blocks for (m, n) in b.cells}
    certificates: set[str] = set()
    for (v, k, m, n) in answers:
        write_atomic(folder / grid.cell_file(v, k, m, n), cell_page(answers, v, k, m, n, certificates))
    for name in sorted(certificates):
        with replacing(folder / "certificates" / name) as tmp:
            Path(tmp).write_bytes(index.read_shipped(name))
    drawn = plot and _plot(folder, blocks[0])
    body = ["<p>Certified bounds lower &lt;= r*(m, n) &lt;= upper on the least feature rank of a nonnegative-kernel attention head solving Min-IP "
            "of length n on m-bit tokens (kernelbounds). A cell is lower-upper (upper with any features), one number when exact, then the letters of "
            "its methods (key below each grid); numbers past 5 digits as 2^x.y, rounded outward; a cell's title and its page give the exact values.</p>",
            "<ul>" + "".join(f'<li><a href="#{escape(b.variant)}-{escape(b.kernel)}">{escape(b.title)}</a></li>' for b in blocks) + "</ul>"]
    if drawn:
        body.append('<p><img src="plot.png" alt="the bounds against m, position-independent heads, nonnegative kernel" width="900"></p>')
    body += [grid.html(b, links=True) for b in blocks]
    body.append("<h2>certificates</h2><ul>" + "".join(f'<li><a href="certificates/{escape(c)}">{escape(c)}</a></li>' for c in sorted(certificates)) + "</ul>")
    write_atomic(folder / "index.html", page("Certified bounds on r*(m, n)", "\n".join(body), None))
    return {"cells": len(answers), "certificates": len(certificates), "plot": bool(drawn)}


def _plot(folder: Path, b) -> bool:
    """plot.png: the figure of `table --plot` for the first block (False without matplotlib)."""
    from . import plots

    rows = [c.row for c in b.cells.values()]
    try:
        plots.draw(rows, folder / "plot.png", "png", 110, True, plots.title(None, b.variant, b.kernel))
    except plots.NoMatplotlib:
        return False
    return True
