"""The committed upper bounds at scale: stored search answers, replayed exactly.

The prefix search (:mod:`prefix`) spends its time in float LPs; its answer is small (a
support and a rational g).  ``kernelbounds/data/prefix-answers.json`` stores the answer of
one deterministic run per committed cell (m, n) for g of any sign, with the run's
parameters (``max_nodes``) and whether the walk was complete, so that regenerating a
certificate is a replay: read g, decide it with the exact extreme-class check
(:func:`complementbasis.decide`), write the certificate (LRAT's idea: the work goes into the
generator, what makes replay cheap is stored).  The nonnegative column needs no storage:
the explicit chain (:mod:`chain`) is closed form and takes milliseconds.

    python -m kernelbounds.upperbounds.replay --refresh [--n 3] [--m 21..64] [--out FILE]

re-runs the searches and rewrites the stored answers (hours of CPU for every cell).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from ..errors import InvalidArgument
from . import chain, complementbasis

DATA = Path(__file__).resolve().parents[1] / "data" / "prefix-answers.json"
FORMAT = "kernelbounds-prefix-answers"

# the committed cells: n = 3 at m = 21..64, n = 4..8 at m = 24, 32, 48, 64 (both columns)
CELLS = [(m, 3) for m in range(21, 65)] + [(m, n) for n in range(4, 9) for m in (24, 32, 48, 64)]


def max_nodes(m: int, n: int) -> int | None:
    """The node budget of the stored run: none (a complete walk) for n = 3, else 1500."""
    return None if n == 3 else 1500


def _read(path: Path = DATA, fmt: str = FORMAT) -> dict[tuple[int, int], dict]:
    if not path.is_file():
        return {}
    doc = json.loads(path.read_text())
    if doc.get("format") != fmt:
        raise InvalidArgument(f"{path} is not a {fmt} file")
    return {(e["m"], e["n"]): e for e in doc["answers"]}


def decided(entry: dict | None, m: int, n: int, method: str, stats: dict, absent: str) -> complementbasis.Construction:
    """A stored answer decided exactly by the extreme classes (InvalidArgument, a
    ValueError, with ``absent`` when there is none, or when it fails the check)."""
    if entry is None:
        raise InvalidArgument(absent)
    found = complementbasis.decide({int(j): Fraction(v) for j, v in entry["g"]}, m, n, method, stats)
    if found is None:
        raise InvalidArgument(f"the stored answer for m = {m}, n = {n} fails the exact extreme-class check")
    return found


def stored(m: int, n: int, path: Path = DATA) -> complementbasis.Construction:
    """The stored signed answer at (m, n), decided exactly (ValueError if absent or false)."""
    entry = _read(path).get((m, n))
    stats = {} if entry is None else {k: entry[k] for k in ("max_nodes", "complete", "nodes")}
    return decided(entry, m, n, "" if entry is None else entry["method"], stats, f"no stored prefix-search answer for m = {m}, n = {n}")


def construction(m: int, n: int, nonnegative: bool) -> complementbasis.Construction:
    """The committed construction of a cell: the explicit chain (g >= 0) or the stored answer."""
    return chain.explicit(m, n) if nonnegative else stored(m, n)


def certificate(m: int, n: int, nonnegative: bool) -> dict:
    return construction(m, n, nonnegative).certificate()


def entry(found: complementbasis.Construction, budget: int | None) -> dict:
    """The stored form of a search answer (no timings: the file is deterministic)."""
    return {
        "m": found.m,
        "n": found.n,
        "method": found.method,
        "support": list(found.support),
        "rank": found.rank,
        "g": [[j, str(v)] for j, v in sorted(found.g.items())],
        "max_nodes": budget,
        "complete": bool(found.stats.get("complete")),
        "nodes": found.stats.get("nodes", 0),
    }


def write(answers: dict[tuple[int, int], dict], path: Path = DATA, fmt: str = FORMAT) -> None:
    from ..certificate import canonical_json, write_atomic

    doc = {"format": fmt, "answers": [answers[k] for k in sorted(answers, key=lambda k: (k[1], k[0]))]}
    write_atomic(path, canonical_json(doc))


def refresh(cells: list[tuple[int, int]], path: Path = DATA, log=print) -> None:
    """Re-run the search at each cell (its stored budget) and merge the answers into path."""
    import time

    from . import prefix

    for m, n in cells:
        start = time.process_time()
        found = prefix.search(m, n, max_nodes=max_nodes(m, n))
        answers = _read(path)
        answers[(m, n)] = entry(found, max_nodes(m, n))
        write(answers, path)
        log(f"m={m} n={n} rank={found.rank} support={list(found.support)} nodes={found.stats['nodes']} complete={found.stats['complete']} cpu={time.process_time() - start:.1f}s")


def table(cells: list[tuple[int, int]], path: Path = DATA) -> str:
    """The markdown table of docs/upper-bounds.md ("at scale"): both columns per cell, with
    log2(rank)/m and what the stored run covered."""
    from math import log2

    answers = _read(path)
    lines = [
        "| n | m | upper (any features) | log2/m | support (search) | walk | upper (nonnegative) | log2/m | chain (proved least of its family) |",
        "|---:|---:|---:|---:|---|---|---:|---:|---|",
    ]
    for m, n in sorted(cells, key=lambda c: (c[1], c[0])):
        c = chain.explicit(m, n)
        e = answers.get((m, n))
        if e is None:
            signed = "-"
            walk = "-"
            ratio = ""
            sup = ""
        else:
            signed = f"{e['rank']:,}"
            ratio = f"{log2(e['rank']) / m:.3f}"
            sup = str(e["support"])
            walk = "complete" if e["complete"] else f"{e['max_nodes']} prefixes"
        lines.append(f"| {n} | {m} | {signed} | {ratio} | {sup} | {walk} | {c.rank:,} | {log2(c.rank) / m:.3f} | {list(c.support)} |")
    return "\n".join(lines) + "\n"


def _span(name: str, lo: int, hi: int):
    """An argparse type: "A..B" or "A", a range within [lo, hi]."""
    import argparse

    def parse(text: str) -> range:
        parts = text.split("..")
        try:
            a, b = int(parts[0]), int(parts[-1])
        except ValueError:
            a = b = None
        if len(parts) > 2 or a is None or not lo <= a <= b <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be A..B with {lo} <= A <= B <= {hi}, got {text!r}")
        return range(a, b + 1)

    return parse


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m kernelbounds.upperbounds.replay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--refresh", action="store_true", help="re-run the prefix searches and store their answers")
    ap.add_argument("--m", type=_span("--m", 1, 64), default=None, help="m values (e.g. 21..64); default: every committed cell")
    ap.add_argument("--n", type=_span("--n", 3, 8), default=None, help="n values; default: every committed cell")
    ap.add_argument("--out", type=Path, default=DATA, help="the answers file (default: the package's)")
    ap.add_argument("--table", action="store_true", help="print the markdown table of docs/upper-bounds.md")
    args = ap.parse_args(argv)
    cells = [(m, n) for m, n in CELLS if (args.m is None or m in args.m) and (args.n is None or n in args.n)]
    if args.refresh:
        refresh(cells, args.out, log=lambda s: print(s, flush=True))
    if args.table:
        print(table(cells, args.out), end="")
        return 0
    for m, n in cells:
        print(m, n, stored(m, n, args.out).rank if (m, n) in _read(args.out) else "-")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
