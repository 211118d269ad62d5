"""Tables and plots of lower <= r* <= upper over (m, n) (floats appear only here)."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from . import lowerbound, upperbound
from .certificate import replacing
from .codes.bounds import johnson
from .parallel import pmap


class Progress:
    """A one-line progress indicator on stderr, shown only on a terminal."""

    def __init__(self, total: int, label: str):
        self.total, self.label, self.done = total, label, 0
        self.live = sys.stderr.isatty()

    def step(self, what: str) -> None:
        self.done += 1
        if self.live:
            sys.stderr.write(f"\r{self.label} [{self.done}/{self.total}] {what}   ")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


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
        "R": lb.min_product,
        "k": lb.rank.k,
        "witness_inputs": lowerbound.any_witness_count(lb),
    }


def _lower_rows(job: tuple[int, range, str]) -> list[tuple]:
    """The lower-bound columns of one m, for every n (one process-pool job)."""
    m, ns, variant = job
    out = []
    for n in ns:
        lb = lowerbound.best(m, n, variant)
        info = lowerbound.describe(lb)
        w = info["weight"]
        out.append((m, n, lb.bound, info["code"], info["size"], lb.min_product, lb.rank.k, johnson(m, info["min_gap"], w) if w else None))
    return out


def table(ms: range, ns: range, variant: str = "position-independent", upper_max_m: int = 0, jobs: int | None = 1) -> list[Row]:
    """One row per (m, n); `jobs` worker processes (None: all cores), rows independent of it."""
    uppers = _level_uppers([m for m in ms if m <= upper_max_m], ns, jobs)
    progress = Progress(len(ms), "table")
    rows = []
    for per_m in pmap(_lower_rows, [(m, ns, variant) for m in ms], jobs):
        for m, n, bound, code, size, p_min, k, jb in per_m:
            rows.append(Row(m, n, bound, min(2**m, uppers.get((m, n), 2**m)), code, size, p_min, k, jb))
        progress.step(f"m={per_m[0][0] if per_m else ''}")
    return rows


def _search(job: tuple[int, int]):
    return upperbound.search(*job)


def _level_uppers(ms: list[int], ns: range, jobs: int | None = 1) -> dict[tuple[int, int], int]:
    """Level-kernel ranks, closed under restriction: r*(m) <= r*(m') for m <= m' (THEORY §2)."""
    pairs = [(m, n) for m in ms for n in ns]
    found = dict(zip(pairs, pmap(_search, pairs, jobs)))
    best = {}
    for (m, n) in found:
        ranks = [c.rank for c in (upperbound.restrict(found[(m2, n)], m) for m2 in ms if m2 >= m and found[(m2, n)]) if c]
        if ranks:
            best[(m, n)] = min(ranks)
    return best


COLUMNS = ("m", "n", "lower", "upper", "upper_nonnegative", "code", "code_size", "min_product", "k", "johnson")


def markdown(rows: list[Row]) -> str:
    head = (
        "| m | n | lower | upper | upper, nonnegative features | code | N | min P | k | Johnson A(m,2g,w) |\n"
        "|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n"
    )
    return head + "".join(
        f"| {r.m} | {r.n} | {r.lower} | {r.upper} | {2**r.m} | {r.code} | {r.code_size} | {r.min_product} | {r.k} | "
        f"{r.johnson if r.johnson is not None else '-'} |\n"
        for r in rows
    )


def csv(rows: list[Row]) -> str:
    def cell(r: Row, c: str) -> str:
        return str(2**r.m) if c == "upper_nonnegative" else str(getattr(r, c))

    return ",".join(COLUMNS) + "\n" + "".join(",".join(cell(r, c) for c in COLUMNS) + "\n" for r in rows)


def plot(rows: list[Row], path: str) -> None:
    """log2(lower bound) against m for each n, beside log2(2^m) = m."""
    import matplotlib  # heavy: only when plotting

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    ms = sorted({r.m for r in rows})
    ax.plot(ms, ms, "k--", label="upper bound 2^m (U2, every n)")
    for n in sorted({r.n for r in rows}):
        pts = sorted((r.m, math.log2(r.lower)) for r in rows if r.n == n)
        line = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=f"certified lower bound, n = {n}")[0]
        ups = sorted((r.m, math.log2(r.upper)) for r in rows if r.n == n and r.upper < 2**r.m)
        if ups:
            ax.plot([p[0] for p in ups], [p[1] for p in ups], linestyle=":", marker="x", color=line.get_color(), label=f"level-kernel upper bound, n = {n}")
    ax.set_xlabel("m (token bits)")
    ax.set_ylabel("log2(feature rank)")
    ax.set_title("Feature rank needed by nonnegative kernel attention on Min-IP")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def save_png(fig, path: str) -> None:
    """Save a figure as PNG atomically (certificate.replacing): no half-written plot."""
    with replacing(path) as tmp:
        fig.savefig(tmp, dpi=110, format="png")
