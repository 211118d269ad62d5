"""Tables of lower <= r* <= upper over (m, n), from the hub (floats only here).

Every number comes from :func:`kernelbounds.hub.answer.bounds`; this module only lays the
answers out (markdown, CSV, JSON Lines; the plots are kernelbounds.reports.plots) and renders the docs tables
(`kernelbounds table --docs`, tested to be current by tests/hub/test_hub.py)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from ..errors import InvalidArgument


@dataclass(frozen=True)
class Row:
    """One cell of the table: the hub's answer at (m, n), with the field names and values
    of ``kb.bound(m, n).to_json()`` and `bound --json` (a method is the method alone; the
    restriction closure in m is its own field, ``*_from_m``, the closure in n ``*_from_n``)."""

    m: int
    n: int
    lower: int
    upper: int  # any features
    upper_nonnegative: int
    exact: bool
    lower_method: str
    upper_method: str
    upper_nonnegative_method: str
    lower_from_m: int | None
    upper_from_m: int | None
    upper_nonnegative_from_m: int | None
    lower_from_n: int | None
    upper_from_n: int | None
    upper_nonnegative_from_n: int | None
    lower_certificate: str | None
    upper_certificate: str | None
    upper_nonnegative_certificate: str | None
    ceiling: int | None  # THEORY "The ceiling of L3/L4 (sharp form)"; None for n <= 2


SIDES = ("lower", "upper", "upper_nonnegative")


def row_of(a) -> Row:
    sides = [getattr(a, name) for name in SIDES]
    return Row(a.m, a.n, *(s.value for s in sides), a.exact, *(s.method for s in sides), *(s.from_m for s in sides), *(s.from_n for s in sides), *(s.certificate for s in sides), a.ceiling)


def method_text(r: Row, side: str) -> str:
    """A side's method for a reader: the method, and the m and n its certificate is at when
    the restriction closure in m (THEORY U5) or the closure in n (THEORY L6') carries it,
    e.g. "direct sum of codes (from m = 48)", "codes (from m = 64, n = 8)"."""
    at = [f"{name} = {source}" for name, source, here in (("m", getattr(r, f"{side}_from_m"), r.m), ("n", getattr(r, f"{side}_from_n"), r.n)) if source not in (None, here)]
    return getattr(r, f"{side}_method") + (f" (from {', '.join(at)})" if at else "")


def table(ms, ns, variant: str = "position-independent", jobs: int | None = 1, executor=None, scheduler: str | None = None, certificates: str | None = None,
          kernel: str = "nonnegative") -> list[Row]:
    """One row per (m, n), m-major: the hub's answers (kernelbounds.hub.answer.table) for the kernel class."""
    from ..hub.answer import table as hub_table

    return [row_of(a) for a in hub_table(ms, ns, variant, jobs=jobs, executor=executor, scheduler=scheduler, certificates=certificates, kernel=kernel)]


COLUMNS = tuple(Row.__dataclass_fields__)


def row_dict(r: Row) -> dict:
    """A row with the documented column names (COLUMNS): CSV and JSON Lines."""
    d = asdict(r)
    return {c: d[c] for c in COLUMNS}


def ratio(r: Row) -> str:
    """'exact', or upper/lower as a power of two (a float: a report only)."""
    import math

    if r.exact:
        return "exact"
    return f"2^{math.log2(r.upper / r.lower):.1f}" if r.upper / r.lower >= 16 else f"{r.upper / r.lower:.2f}"


def markdown(rows: list[Row], signed: list[tuple] | None = None, log2: bool = False) -> str:
    """The markdown table; ``signed`` (one pair per row: the lower sides for the signed and
    signed-any-denominator kernel classes, THEORY L8, None where refused) adds two columns;
    every table states the ceiling of L3/L4 at n >= 3 (the most any code or direct-sum
    certificate can prove, THEORY "The ceiling of L3/L4 (sharp form)", exact); ``log2`` adds
    log2 of the lower side, of the ceiling and of both upper sides (floats: a report only)."""
    import math

    extra = "" if signed is None else " lower (signed) | lower (signed, any denominator) |"
    logs = " log2 lower | log2 L3/L4 ceiling | log2 upper (any) | log2 upper (nonnegative) |" if log2 else ""
    head = (
        f"| m | n | lower |{extra} L3/L4 ceiling | upper (any features) | upper (nonnegative features) |{logs} exact or upper/lower | lower by | upper by |\n"
        f"|---:|---:|---:|{'' if signed is None else '---:|---:|'}---:|---:|---:|{'---:|---:|---:|---:|' if log2 else ''}---|---|---|\n"
    )

    def cells(i: int) -> str:
        return "" if signed is None else "".join(f" {'n/a' if v is None else v} |" for v in signed[i])

    def bits(r: Row) -> str:
        if not log2:
            return ""
        ceiling = "n/a" if r.ceiling is None else f"{math.log2(r.ceiling):.1f}"
        return f" {math.log2(r.lower):.1f} | {ceiling} | {math.log2(r.upper):.1f} | {math.log2(r.upper_nonnegative):.1f} |"

    return head + "".join(
        f"| {r.m} | {r.n} | {r.lower} |{cells(i)} {'n/a' if r.ceiling is None else r.ceiling} | {r.upper}{' (exact)' if r.exact else ''} | {r.upper_nonnegative} |{bits(r)} {ratio(r)} "
        f"| {method_text(r, 'lower')} | {method_text(r, 'upper')}"
        f"{'' if method_text(r, 'upper_nonnegative') == method_text(r, 'upper') else ' / ' + method_text(r, 'upper_nonnegative')} |\n"
        for i, r in enumerate(rows)
    )


def csv(rows: list[Row]) -> str:
    """RFC 4180 CSV through the csv module; empty cell for no value."""
    import csv as csvlib
    import io

    buf = io.StringIO()
    writer = csvlib.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow(["" if v is None else v for v in row_dict(r).values()])
    return buf.getvalue()


# ---------------------------------------------------------------- generated docs tables

DOCS_MARK = re.compile(r"(<!-- kernelbounds table (--m [0-9.,:]+ --n \d+\.\.\d+(?: --variant [a-z-]+)?(?: --kernels)?(?: --log2)?) -->\n)(.*?)(<!-- end of generated table -->)", re.S)


def m_list(text: str) -> list[int]:
    """The m values of a docs table mark: comma-separated A, A..B or A..B:S (every S-th m from
    A to B), e.g. ``65,72..256:8``; sorted, each once.  ValueError on anything else."""
    out = set()
    for part in text.split(","):
        span, _, step = part.partition(":")
        a, _, b = span.partition("..")
        lo, hi, by = int(a), int(b or a), int(step or 1)
        if not 1 <= lo <= hi or by < 1:
            raise InvalidArgument(f"bad m list {text!r}")
        out.update(range(lo, hi + 1, by))
    return sorted(out)


def _spec(text: str) -> tuple[list[int], range, str]:
    parts = [p for p in text.split() if p not in ("--kernels", "--log2")]
    args = dict(zip(parts[::2], parts[1::2], strict=True))
    c, d = map(int, args["--n"].split(".."))
    return m_list(args["--m"]), range(c, d + 1), args.get("--variant", "position-independent")


def render_docs(text: str, jobs: int | None = 1) -> str:
    """The text with every generated table (between a `<!-- kernelbounds table --m A..B
    --n C..D -->` line and `<!-- end of generated table -->`) rendered anew from the hub."""

    def one(match: re.Match) -> str:
        ms, ns, variant = _spec(match.group(2))
        rows = table(ms, ns, variant, jobs=jobs)
        signed = None
        if "--kernels" in match.group(2).split():  # the signed kernel classes' lower sides (THEORY L8)
            pairs = [table(ms, ns, variant, jobs=jobs, kernel=k) if (k, variant) != ("signed-any-denominator", "position-dependent") else [None] * len(rows)
                     for k in ("signed", "signed-any-denominator")]
            signed = [tuple(None if r is None else r.lower for r in pair) for pair in zip(*pairs, strict=True)]
        return match.group(1) + markdown(rows, signed, log2="--log2" in match.group(2).split()) + match.group(4)

    return DOCS_MARK.sub(one, text)


def docs_files(root) -> list:
    """The docs/ files (and README.md) that carry generated tables."""
    from pathlib import Path

    root = Path(root)
    files = sorted((root / "docs").glob("*.md")) + [root / "README.md"]
    return [f for f in files if f.is_file() and DOCS_MARK.search(f.read_text(encoding="utf-8"))]
