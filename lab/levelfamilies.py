"""The least rank of every U4 level family (THEORY §2 U4), as a markdown table.

``python -m lab.levelfamilies --n 3 --m 4..20`` searches each family (process
pool over families), asks for exact Motzkin refutations of every maximal cheaper
support, and prints one row per m: rank (support) per family, "*" = proved least of the
family by exact multipliers, "~" = best found (cheaper supports infeasible by float LP).
"""

from __future__ import annotations

import argparse
import time

from kernelbounds.upperbounds.levelfamily import families as lf_families, verdicts as lf_verdicts

FAMILIES = lf_families.families() + [f for f in lf_families.families(nonnegative=True) if f.basis == "complement"]


def cell(r: lf_verdicts.Result) -> str:
    if r.found.support is None:
        return "none" + (" (refuted)" if r.proved else "")
    return f"{r.rank}{'*' if r.proved else '~'} {list(r.found.support)}".replace(" ", "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lab.levelfamilies", description=__doc__)
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--m", default="4..20")
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.m.split(".."))
    print("| m | " + " | ".join(f.name for f in FAMILIES) + " | seconds |")
    print("|---:|" + "---|" * len(FAMILIES) + "---:|")
    for m in range(lo, hi + 1):
        t0 = time.perf_counter()
        results = lf_verdicts.solve_families(FAMILIES, m, args.n, prove=True, processes=args.processes)
        print(f"| {m} | " + " | ".join(cell(r) for r in results) + f" | {time.perf_counter() - t0:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
