"""Level families above m = 64 (THEORY §2 U4', "Above m = 64"): a signed prefix proposed by a
float LP, extended by the explicit rule; the explicit chain for nonnegative features.

A complement-basis, affine-readout family whose exact reach (every extreme class with largest
x <= R holds, and H > 0 there) is R works at every m <= R, with rank sum_(j in S) C(m, j).
For the signed column at a cell (m, n) the candidates are *bases* with an exact reach, each
extended to reach m by :func:`chain.least_extension` (new elements g_j = 16 H(j - 1), each in
(last, reach + 1]):

- the full prefix [0..J] for J = 1, 2, ...: its LP solution at its LP reach
  (:func:`prefix.signed_reach`'s solutions, grown J by J), rounded to dyadic rationals with
  10..53 significant bits, the rounding of largest exact reach kept (ties: fewest bits);
- the committed m = 64 signed answer (:mod:`replay`), whose reach is far beyond 64 at n = 3;
- the explicit chain's base g = 1 (so the signed answer is never worse than the chain).

The cheapest extended base at m is the answer (ties: the first in that order).  The floats
only propose: every answer is decided by the exact extreme-class check
(:func:`complementbasis.decide`), and the search is not claimed to find the least rank of the
family (for a signed base the pruning of :func:`chain.least_extension` is a heuristic).

The LPs take minutes, so ``kernelbounds/data/extension-answers.json`` stores the exact g of
every committed signed cell with its provenance, and regenerating a certificate is a replay
(read g, decide it exactly, write it), as :mod:`replay` does for m <= 64.  The nonnegative
column is the explicit chain (:func:`chain.explicit`), closed form, seconds at m = 256.

    python -m kernelbounds.upperbounds.extension --refresh [--n 3..8] [--out FILE]

re-runs the searches at every grid m of the chosen n and rewrites the stored answers.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

from ..errors import InvalidArgument
from . import chain, complementbasis, replay

DATA = Path(__file__).resolve().parents[1] / "data" / "extension-answers.json"
FORMAT = "kernelbounds-extension-answers"

# m = 65, then every 8th m from 72 to 256 (96, 128, 192 and 256 among them): with the
# restriction closure every 65 <= m <= 256 is answered by the next grid m at or above it
GRID = [65] + list(range(72, 257, 8))
NS = range(3, 9)
CELLS = [(m, n) for n in NS for m in GRID]
MAX_M = GRID[-1]
STALL = 8  # the LP prefixes stop when the LP reach has not grown for this many J (the float LP stalls)


def _rounded(g: dict[int, float], n: int, cap: int) -> tuple[dict[int, int], int, int]:
    """(integer g, exact reach capped at cap, bits) of the rounding of largest exact reach."""
    from . import prefix

    best = None
    for bits in prefix.BITS:
        exact = {j: prefix.dyadic(v / g[0], bits) for j, v in g.items()}
        exact[0] = Fraction(1)
        gi = complementbasis.integral(exact)
        r = complementbasis.reach(gi, n, 0, limit=cap)
        if best is None or r > best[1]:
            best = (gi, r, bits)
    return best


def prefix_bases(n: int, cap: int = MAX_M, log=None) -> list[dict]:
    """The rounded LP solutions of the full prefixes [0..J], J = 1, 2, ..., each grown from the
    last (as prefix.signed_reach grows them, but every solution divided by its g_0 > 0: the
    rows are homogeneous and the LP's scales relative, so this changes no feasibility, and
    without it g grows by about 16 H(J - 1) per step and overflows floats near J = 30),
    until one reaches cap, the LP reach has not grown for STALL steps, or [0..J] costs more
    at cap than the explicit chain there: each
    {"base", "g" (integers), "reach" (exact, capped at cap)}."""
    import numpy as np

    from . import prefix

    out, grew_at, reach, g = [], 0, chain.reach_bound(0, n), {0: 1.0}
    ceiling = chain.explicit(cap, n).rank  # a base costing more at cap than the chain is not tried
    for J in range(1, cap + 1):
        if sum(comb(cap, j) for j in range(J + 1)) >= ceiling:
            break
        with np.errstate(all="ignore"):
            r, best = prefix.lp_reach(tuple(range(J + 1)), n, False, prefix._child_guess(g, J), reach, cap, {})
        if not all(np.isfinite(v) for v in best.values()) or best.get(0, 0.0) <= 0:
            break
        g = {j: v / best[0] for j, v in best.items()}
        gi, exact, bits = _rounded(g, n, cap)
        out.append({"base": f"LP prefix [0..{J}], {bits} bits", "g": gi, "reach": exact})
        if log:
            log(f"n={n} J={J} LP reach {r} exact reach {exact} ({bits} bits)")
        if r > reach:
            grew_at, reach = J, r
        if exact >= cap or r >= cap or J - grew_at >= STALL:
            break
    return out


def committed_base(n: int, cap: int = MAX_M) -> dict:
    """The committed m = 64 signed answer as a base."""
    gi = complementbasis.integral(replay.stored(64, n).g)
    return {"base": "committed m = 64 answer", "g": gi, "reach": complementbasis.reach(gi, n, 0, limit=cap)}


def chain_base(n: int) -> dict:
    """g = 1 (the explicit chain's start)."""
    return {"base": "explicit chain", "g": {0: 1}, "reach": complementbasis.reach({0: 1}, n, 0, limit=chain.reach_bound(0, n) + 1)}


def best(m: int, n: int, bases: list[dict]) -> tuple[complementbasis.Construction, dict]:
    """The cheapest base extended to reach m (ties: the first), decided exactly; (construction,
    its stored entry)."""
    top = None
    for b in bases:
        if max(b["g"]) > m:
            continue
        try:
            added, g, c, _ = chain.least_extension(b["g"], b["reach"], m, n)
        except ValueError:  # no extension of this base reaches m
            continue
        total = sum(comb(m, j) for j in b["g"]) + c
        if top is None or total < top[0]:
            top = (total, b, added, g)
    if top is None:
        raise InvalidArgument(f"no base extends to m = {m} at n = {n}")
    total, b, added, g = top
    found = complementbasis.decide(g, m, n, "LP prefix + explicit extension")
    if found is None:  # every reach above is exact: this would be a bug, never a silent answer
        raise AssertionError(f"the extension of {b['base']} at m = {m}, n = {n} fails the exact class check")
    assert found.rank == total
    return found, entry(found, b["base"], added)


def entry(found: complementbasis.Construction, base: str, added: tuple[int, ...]) -> dict:
    """The stored form of an answer."""
    return {
        "m": found.m,
        "n": found.n,
        "base": base,
        "extension": list(added),
        "support": list(found.support),
        "rank": found.rank,
        "g": [[j, str(v)] for j, v in sorted(found.g.items())],
    }


def stored(m: int, n: int, path: Path = DATA) -> complementbasis.Construction:
    """The stored signed answer at (m, n), decided exactly (ValueError if absent or false)."""
    e = replay._read(path, FORMAT).get((m, n))
    stats = {} if e is None else {"base": e["base"]}
    return replay.decided(e, m, n, "LP prefix + explicit extension", stats, f"no stored signed answer above m = 64 for m = {m}, n = {n}")


def construction(m: int, n: int, nonnegative: bool) -> complementbasis.Construction:
    """The committed construction of a cell: the explicit chain (g >= 0) or the stored answer."""
    return chain.explicit(m, n) if nonnegative else stored(m, n)


def certificate(m: int, n: int, nonnegative: bool) -> dict:
    return construction(m, n, nonnegative).certificate()


def signed_cells(path: Path = DATA) -> list[tuple[int, int]]:
    """The grid cells with a stored signed answer (those that beat the explicit chain)."""
    stored_cells = replay._read(path, FORMAT)
    return [c for c in CELLS if c in stored_cells]


def refresh(ns, path: Path = DATA, log=print) -> None:
    """Search every grid m of each n in ns and store the signed answers that beat the chain."""
    answers = replay._read(path, FORMAT)
    for n in ns:
        bases = prefix_bases(n, MAX_M, log) + [committed_base(n), chain_base(n)]
        for m in GRID:
            found, e = best(m, n, bases)
            c = chain.explicit(m, n)
            answers.pop((m, n), None)
            if found.rank < c.rank:
                answers[(m, n)] = e
            log(f"m={m} n={n} signed 2^{found.rank.bit_length() - 1}+ ({e['base']}, +{e['extension']}) chain 2^{c.rank.bit_length() - 1}+")
        replay.write(answers, path, FORMAT)


def table(cells, path: Path = DATA) -> str:
    """The markdown table of docs/upper-bounds.md ("above m = 64"): log2 of both columns."""
    from math import log2

    answers = replay._read(path, FORMAT)
    lines = [
        "| n | m | log2 upper (any features) | support (any features) | log2 upper (nonnegative) | chain |",
        "|---:|---:|---:|---|---:|---|",
    ]
    for m, n in sorted(cells, key=lambda c: (c[1], c[0])):
        c = chain.explicit(m, n)
        e = answers.get((m, n))
        signed, sup = (f"{log2(e['rank']):.1f}", _short(e["support"])) if e else (f"{log2(c.rank):.1f}", "the chain")
        lines.append(f"| {n} | {m} | {signed} | {sup} | {log2(c.rank):.1f} | {list(c.support)} |")
    return "\n".join(lines) + "\n"


def _short(support: list[int]) -> str:
    """A support with runs of consecutive elements written a..b."""
    parts, i = [], 0
    while i < len(support):
        k = i
        while k + 1 < len(support) and support[k + 1] == support[k] + 1:
            k += 1
        parts.append(str(support[i]) if k == i else f"{support[i]}..{support[k]}")
        i = k + 1
    return "{" + ", ".join(parts) + "}"


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m kernelbounds.upperbounds.extension", description=__doc__.split("\n\n")[0])
    ap.add_argument("--refresh", action="store_true", help="re-run the searches and store their answers")
    ap.add_argument("--n", type=replay._span("--n", 3, 8), default=NS, help="n values (e.g. 3..8); default: all")
    ap.add_argument("--out", type=Path, default=DATA, help="the answers file (default: the package's)")
    ap.add_argument("--table", action="store_true", help="print the markdown table of docs/upper-bounds.md")
    args = ap.parse_args(argv)
    if args.refresh:
        refresh(args.n, args.out, log=lambda s: print(s, flush=True))
    cells = [(m, n) for m, n in CELLS if n in args.n]
    if args.table:
        print(table(cells, args.out), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
