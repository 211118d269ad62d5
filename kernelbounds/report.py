"""Tables and plots of lower <= r* <= upper over (m, n) (floats appear only here)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import lowerbound
from .codes.bounds import johnson


@dataclass(frozen=True)
class Row:
    m: int
    n: int
    lower: int
    upper: int  # the best certified upper bound: a level kernel where searched, else 2^m
    code: str
    code_size: int
    min_product: int
    k: int
    johnson: int | None


def bound_summary(lb) -> dict:
    """The JSON report of `kernelbounds bound`."""
    info = lowerbound.describe(lb)
    w, g = info["weight"], info["min_gap"]
    return {
        "m": lb.m,
        "n": lb.n,
        "variant": lb.variant,
        "lower": lb.bound,
        "upper": 2**lb.m,
        "code": info["code"],
        "code_size": info["size"],
        "code_weight": w,
        "min_gap": g,
        "gaps": None if info["gaps"] is None else {str(k): v for k, v in sorted(info["gaps"].items())},
        "form": "uniform (linear code, no pairwise pass)" if info["gaps"] is None else "per-entry",
        "johnson_bound": johnson(lb.m, g, w) if w is not None else None,
        "min_product": lb.min_product,
        "k": lb.rank.k,
        "witness_inputs": lowerbound.any_witness_count(lb),
    }


TRIVIAL = "trivial"  # the code column when no code with gaps >= 2 fits in m bits: lower = 1


def has_code(m: int) -> bool:
    """Whether some candidate code with all gaps >= 2 fits in m bits (none for m <= 3)."""
    from .codes.library import candidates

    return bool(candidates(m, thorough=True))


def table(ms: range, ns: range, variant: str = "position-independent", upper_max_m: int = 0) -> list[Row]:
    """One row per (m, n); rows without a code carry the trivial bound r* >= 1."""
    from .progress import bar

    uppers = _level_uppers([m for m in ms if m <= upper_max_m], ns)
    rows = []
    with bar(len(ms) * len(ns), "table", "row") as progress:
        for m in ms:
            for n in ns:
                upper = min(2**m, uppers.get((m, n), 2**m))
                if not has_code(m):
                    rows.append(Row(m, n, 1, upper, TRIVIAL, 0, 0, 0, None))
                else:
                    lb = lowerbound.best(m, n, variant)
                    info = lowerbound.describe(lb)
                    w = info["weight"]
                    rows.append(Row(m, n, lb.bound, upper, info["code"], info["size"], lb.min_product, lb.rank.k, johnson(m, info["min_gap"], w) if w else None))
                progress.update(1)
    return rows


def _level_uppers(ms: list[int], ns: range) -> dict[tuple[int, int], int]:
    """Level-kernel ranks, closed under restriction: r*(m) <= r*(m') for m <= m' (THEORY §2)."""
    from . import upperbound

    found = {(m, n): upperbound.search(m, n) for m in ms for n in ns}
    best = {}
    for (m, n) in found:
        ranks = [c.rank for c in (upperbound.restrict(found[(m2, n)], m) for m2 in ms if m2 >= m and found[(m2, n)]) if c]
        if ranks:
            best[(m, n)] = min(ranks)
    return best


COLUMNS = ("m", "n", "lower", "upper", "upper_nonnegative", "code", "code_size", "min_product", "k", "johnson")


def row_dict(r: Row) -> dict:
    """A row with the documented column names (COLUMNS): CSV and JSON Lines."""
    d = asdict(r)
    d["upper_nonnegative"] = 2**r.m
    return {c: d[c] for c in COLUMNS}


def markdown(rows: list[Row]) -> str:
    head = (
        "| m | n | lower | upper | upper_nonnegative | code | code_size | min_product | k | johnson |\n"
        "|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n"
    )
    return head + "".join(
        f"| {r.m} | {r.n} | {r.lower} | {r.upper} | {2**r.m} | {r.code} | {r.code_size} | {r.min_product} | {r.k} | "
        f"{r.johnson if r.johnson is not None else '-'} |\n"
        for r in rows
    )


def csv(rows: list[Row]) -> str:
    """RFC 4180 CSV through the csv module (code names may contain commas); empty cell
    for no value."""
    import csv as csvlib
    import io

    buf = io.StringIO()
    writer = csvlib.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow(["" if v is None else v for v in row_dict(r).values()])
    return buf.getvalue()


PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: str) -> str:
    """The figure format from the file extension (PNG, SVG or PDF); ValueError otherwise."""
    import os

    ext = os.path.splitext(path)[1].lower()
    if ext not in PLOT_FORMATS:
        raise ValueError(f"cannot tell the plot format from {path!r}: use a .png, .svg or .pdf file name")
    return PLOT_FORMATS[ext]


def plot(rows: list[Row], path: str, dpi: int = 150) -> None:
    """Certified bounds on the feature rank against m, log-2 y axis with 2^k ticks: for
    each n the certified lower bound, the level-kernel upper bound where searched, the
    gap between them shaded, and 2^m (U2, every n)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator

    fmt = "png" if path == "-" else plot_format(path)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ms = sorted({r.m for r in rows})
    ax.plot(ms, [2.0**m for m in ms], "k--", label="upper bound 2^m (U2, every n)")
    ns_all = sorted({r.n for r in rows})
    for n in ns_all:  # nested gaps (lower grows with n): light shades that add up to 0.3
        own = sorted((r for r in rows if r.n == n), key=lambda r: r.m)
        xs = [r.m for r in own]
        lower, upper = [float(r.lower) for r in own], [float(r.upper) for r in own]  # floats: a plot only
        line = ax.plot(xs, lower, marker=".", label=f"certified lower bound, n = {n}")[0]
        ups = [r for r in own if r.upper < 2**r.m]
        if ups:
            ax.plot([r.m for r in ups], [float(r.upper) for r in ups], linestyle=":", marker="x", color=line.get_color(), label=f"level-kernel upper bound, n = {n}")
        ax.fill_between(xs, lower, upper, color=line.get_color(), alpha=0.3 / len(ns_all), linewidth=0, label=f"gap between the bounds, n = {n}")
    ax.set_yscale("log", base=2)
    ax.yaxis.set_major_locator(LogLocator(base=2, numticks=12))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"$2^{{{round(__import__('math').log2(y))}}}$" if y > 0 else ""))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("m (token bits)")
    ax.set_ylabel("feature rank r* (log scale)")
    ax.set_title("Certified bounds on the feature rank of nonnegative kernel attention (Min-IP)", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    _save_atomic(fig, path, fmt, dpi)
    plt.close(fig)


def _save_atomic(fig, path: str, fmt: str = "png", dpi: int = 150) -> None:
    """Save a figure next to path in the given format, then rename: no half-written plot;
    '-' writes the bytes to standard output."""
    import os
    import sys
    import tempfile

    if path == "-":
        import io

        buf = io.BytesIO()
        fig.savefig(buf, dpi=dpi, format=fmt)
        sys.stdout.buffer.write(buf.getvalue())
        sys.stdout.flush()
        return
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(suffix="." + fmt, dir=directory)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=dpi, format=fmt)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
