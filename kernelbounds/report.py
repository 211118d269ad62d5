"""Tables and plots of lower <= r* <= upper over (m, n) (floats appear only here)."""

from __future__ import annotations

import math
import sys
from dataclasses import asdict, dataclass

from . import exact
from .lowerbounds import assemble as lowerbound
from .certificate import replacing
from .parallel import default_jobs, pmap
from .lowerbounds.codes.bounds import johnson


@dataclass(frozen=True)
class Row:
    m: int
    n: int
    lower: int
    upper: int  # the best certified upper bound with any features (upperbound.best_known)
    upper_nonnegative: int  # the best certified upper bound with nonnegative features
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
        "form": info["form"],
        "orbits": info["orbits"],
        "johnson_bound": johnson(lb.m, g, w) if w is not None and g is not None else None,
        "min_product": lb.min_product,
        "k": lb.k,
        "witness_inputs": lowerbound.any_witness_count(lb),
    }


TRIVIAL = "trivial"  # the code column when no code with gaps >= 2 fits in m bits: lower = 1


def _lower_rows(m: int, ns: tuple[int, ...], variant: str) -> list[tuple]:
    """(n, lower, code, N, min P, k, Johnson) for one m: the certified rank-one heads of
    THEORY U5 where they exist, else lowerbound.best (the trivial r >= 1 where no code fits)."""
    out = []
    for n in ns:
        small = exact.known(m, n) if variant == "position-independent" else None
        if small and m <= exact.RANK_ONE_MAX_M:  # certified rank-one heads; no code needed
            out.append((n, small[0], "rank-one head", 0, 0, 0, None))
            continue
        lb = lowerbound.best(m, n, variant)
        if lb.size == 0:
            out.append((n, 1, TRIVIAL, 0, 0, 0, None))
            continue
        info = lowerbound.describe(lb)
        w, g = info["weight"], info["min_gap"]
        out.append((n, lb.bound, info["code"], info["size"], lb.min_product, lb.k, johnson(m, g, w) if w and g else None))
    return out


def _heavy_first(ms: range) -> list[int]:
    """Large m first (their linear codes take longest), so two workers finish together."""
    return sorted(ms, reverse=True)


def table(ms: range, ns: range, variant: str = "position-independent", upper_max_m: int = 0, jobs: int | None = 1) -> list[Row]:
    """One row per (m, n).  The lower column is closed under restriction: a code for m'
    < m, padded with zero coordinates, certifies the same bound at m (THEORY §2: r* is
    nondecreasing in m), so a row shows the best over m' <= m in the range, its code
    marked "(from m = m')".  Upper columns: upperbound.best_known (committed level-family
    certificates and their restriction closure) and the small-m certificates of U5.
    The m values run in `jobs` processes (None: all cores); the rows do not depend on it."""
    from .progress import bar
    from .upperbound import best_known

    order = _heavy_first(ms)
    found: dict[int, list[tuple]] = {}
    if min(jobs or default_jobs(), len(order)) > 1:
        found = dict(zip(order, pmap(_lower_rows_star, [(m, tuple(ns), variant) for m in order], jobs)))
    else:
        with bar(len(order), "table", "m") as progress:
            for m in order:
                found[m] = _lower_rows(m, tuple(ns), variant)
                progress.update(1)
    rows, best_so_far = [], {}
    for m in ms:
        for n, lower, code, size, min_p, k, john in found[m]:
            prev = best_so_far.get(n)
            if prev is not None and prev[1] > lower:  # the restriction closure
                lower, code, size, min_p, k, john = prev[1], f"{prev[2]} (from m = {prev[0]})", prev[3], prev[4], prev[5], None
            else:
                best_so_far[n] = (m, lower, code, size, min_p, k)
            upper, upper_nonneg = best_known(m, n, search_max_m=upper_max_m)
            if variant == "position-independent":  # small-m certificates: Farkas (rank one), explicit heads
                lower, upper = exact.combine(m, n, lower, upper)
            if code == "rank-one head":  # phi = 1 and psi >= 0: nonnegative features
                upper_nonneg = min(upper_nonneg, upper)
            rows.append(Row(m, n, lower, upper, upper_nonneg, code, size, min_p, k, john))
    return rows


def _lower_rows_star(args) -> list[tuple]:
    return _lower_rows(*args)


COLUMNS = ("m", "n", "lower", "upper", "upper_nonnegative", "code", "code_size", "min_product", "k", "johnson")


def row_dict(r: Row) -> dict:
    """A row with the documented column names (COLUMNS): CSV and JSON Lines."""
    d = asdict(r)
    return {c: d[c] for c in COLUMNS}


def markdown(rows: list[Row]) -> str:
    head = (
        "| m | n | lower | upper (any features) | upper_nonnegative (nonnegative features) | code | code_size | min_product | k | johnson |\n"
        "|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n"
    )
    return head + "".join(
        f"| {r.m} | {r.n} | {r.lower} | {r.upper}{' (exact)' if r.lower == r.upper else ''} | {r.upper_nonnegative} | {r.code} | {r.code_size} | {r.min_product} | {r.k} | "
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
        for field, style, marker, what in (("upper", ":", "x", "any"), ("upper_nonnegative", "-.", "+", "nonnegative")):
            ups = [r for r in own if getattr(r, field) < 2**r.m]
            if ups:
                ax.plot([r.m for r in ups], [float(getattr(r, field)) for r in ups], linestyle=style, marker=marker, color=line.get_color(), label=f"upper bound ({what} features), n = {n}")
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
    save_figure(fig, path, fmt, dpi)
    plt.close(fig)


def save_figure(fig, path: str, fmt: str = "png", dpi: int = 150) -> None:
    """Save a figure in the given format through certificate.replacing (no half-written
    plot); '-' writes the bytes to standard output."""
    if path == "-":
        import io

        buf = io.BytesIO()
        fig.savefig(buf, dpi=dpi, format=fmt)
        sys.stdout.buffer.write(buf.getvalue())
        sys.stdout.flush()
        return
    with replacing(path) as tmp:
        fig.savefig(tmp, dpi=dpi, format=fmt)
