"""Timing table for the project's speed targets (run through scripts/bench).

Honest by construction: every job runs in its own fresh process (no warm caches, no
shared imports), several times; the table shows the median and the spread (min..max) of
the CPU seconds of the measured region, and each row names its anchor, a baseline
measured in the same run, with the ratio median / anchor median.  Slow or merely
illustrative rows (sympy, float ranks, the m = 24 search) run only with --all.

    scripts/bench [--repeats 3] [--all] [--only SUBSTRING]
    python scripts/bench.py --job NAME      (one job, prints JSON; used internally)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from itertools import combinations_with_replacement
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "certificates"


# ----------------------------------------------------------------- jobs (each: setup, then a timed run)


def _literal_classes(m: int, n: int) -> Fraction:
    """The anchor for level classes: one Fraction output per class, as the code did before."""
    from kernelbounds.constructions import tensor

    profile, worst = tensor(m, n).profile(), Fraction(0)
    for p in range(m + 1):
        w = [Fraction(profile.weight(p, l)) for l in range(p + 1)]
        wf = [w[l] * profile.score(p, l) for l in range(p + 1)]
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            den = w[p] + sum(w[l] for l in levels)
            worst = max(worst, abs((wf[p] + sum(wf[l] for l in levels)) / den - min((p, *levels))))
    return worst


def job_classes_literal_m64_n4():
    return lambda: f"worst error {_literal_classes(64, 4)} (Fraction per class)"


def _classes(route: str, m: int, n: int, note: str):
    """A generator route of kernelbounds.classes on U2's profile (set up outside the timing)."""
    from kernelbounds import classes
    from kernelbounds.constructions import tensor

    profile, fn = tensor(m, n).profile(), getattr(classes, route)
    return lambda: f"worst error {fn(profile, m, n).worst_error} ({note})"


def job_classes_generator_m64_n4():
    return _classes("worst_error_all_classes", 64, 4, "integers")


def job_classes_extreme_m64_n4():
    return _classes("worst_error_extreme_classes", 64, 4, "classes (p, t, u, u) only")


def job_classes_checker_m64_n4():
    from kernelbounds.checker.rules.construction import worst_by_classes

    c = Fraction(1, 7)
    return lambda: f"worst error {worst_by_classes(lambda l: c**l, lambda p, l: Fraction(l), 64, 4)[0]} (checker's loop)"


def job_exhaustive_m4_n3():
    from kernelbounds.constructions import tensor
    from kernelbounds.model import exhaustive_worst_error

    head = tensor(4, 3).head()
    return lambda: f"worst error {exhaustive_worst_error(head, 4, 3).worst_error} (every input over {{0,1}}^4)"


def job_classes_m4_n3():
    return _classes("worst_error_by_classes", 4, 3, "by level classes")


def _check(name: str):
    from kernelbounds.checker import check_file

    def run():
        v = check_file(str(CERTS / name))
        return f"exit {v.code}: {v.summary[:70]}"

    return run


def job_check_u2_m64_n5():
    return _check("construction-tensor-m64-n5.json")


def job_check_u2_m64_n6():
    return _check("construction-tensor-m64-n6.json")


def job_check_u2_m16_n4():
    return _check("construction-tensor-m16-n4.json")


def job_check_rank_m12():
    return _check("rank-tensor-m12.json")


def _tensor_m12_entries():
    """The integer-scaled 4096 x 4096 matrix of rank-tensor-m12.json, as one flat list."""
    doc = json.loads((CERTS / "rank-tensor-m12.json").read_text())
    h = [Fraction(x) for x in doc["kernel"]["h"]]
    d = max(x.denominator for x in h)
    table = [int(x * d) for x in h]
    return [table[(x & z).bit_count()] for x in range(4096) for z in range(4096)], int(doc["lower"]["prime"])


def job_bare_fmpz_m12():
    import flint

    entries, _ = _tensor_m12_entries()
    return lambda: f"rank {flint.fmpz_mat(4096, 4096, entries).rank()} (fmpz_mat from a prepared list, then rank)"


def job_bare_nmod_m12():
    import flint

    entries, p = _tensor_m12_entries()
    entries = [v % p for v in entries]
    return lambda: f"rank {flint.nmod_mat(4096, 4096, entries, p).rank()} (nmod_mat mod {p} from a prepared list, then rank)"


def job_rank_tool_m12():
    from kernelbounds import rank

    h = rank.named_kernel("tensor", 12)
    return lambda: f"rank {rank.flint_rank(rank.kernel_rows(h, 12))} (generator: matrix with numpy, then fmpz_mat.rank)"


def job_gap_histogram_3000():
    from kernelbounds.codes import golay
    from kernelbounds.codes.verify import gap_histogram

    words = golay.dodecads().words + golay.octads().words[:424]
    return lambda: f"{len(words)} words, {sum(gap_histogram(words, 24).values())} ordered pairs"


def job_check_lower_m24():
    return _check("lower-position-independent-m24-n3.json")


def job_check_linear_m64():
    return _check("lower-position-independent-m64-n8.json")


def job_bound_m24():
    from kernelbounds import lowerbound

    return lambda: f"r >= {lowerbound.best(24, 3).bound}"


def _upper(m: int):
    from kernelbounds.upperbound import search

    def run():
        c = search(m, 3)
        return f"rank {c.rank} < 2^{m} = {2**m}"

    return run


def job_upper_m16():
    return _upper(16)


def job_upper_m24():
    return _upper(24)


def job_table_m4_64():
    from kernelbounds import report

    return lambda: f"{len(report.table(range(4, 65), range(3, 9)))} rows"


def job_sympy_rank_m7():
    import sympy

    from kernelbounds import rank

    rows = rank.kernel_rows(rank.named_kernel("tensor", 7), 7)
    return lambda: f"rank {sympy.Matrix(rows).rank()} (128 x 128)"


def job_numpy_float_rank_m12():
    import numpy as np

    from kernelbounds import rank

    rows = np.array(rank.kernel_rows(rank.named_kernel("tensor", 12), 12), dtype=float)
    return lambda: f"float rank {np.linalg.matrix_rank(rows)} (exact 4096)"


# ----------------------------------------------------------------- the table

# (job, label, target, anchor job or None, shown only with --all)
ROWS = [
    ("classes_literal_m64_n4", "U2 level classes m = 64, n = 4: literal Fraction loop (anchor)", "-", None, False),
    ("classes_generator_m64_n4", "U2 level classes m = 64, n = 4: generator, integers", ">= 40x faster", "classes_literal_m64_n4", False),
    ("classes_checker_m64_n4", "U2 level classes m = 64, n = 4: checker, integers", ">= 40x faster", "classes_literal_m64_n4", False),
    ("classes_extreme_m64_n4", "U2 level classes m = 64, n = 4: extreme classes only", "-", "classes_literal_m64_n4", False),
    ("exhaustive_m4_n3", "U2 m = 4, n = 3: literal exhaustive evaluation (anchor)", "-", None, False),
    ("classes_m4_n3", "U2 m = 4, n = 3: by level classes", "-", "exhaustive_m4_n3", False),
    ("check_u2_m16_n4", "check construction-tensor-m16-n4.json", "< 1 s", None, False),
    ("check_u2_m64_n5", "check construction-tensor-m64-n5.json (11.2M classes)", "seconds", None, False),
    ("check_u2_m64_n6", "check construction-tensor-m64-n6.json (131M classes)", "< 60 s", None, False),
    ("bare_fmpz_m12", "bare python-flint fmpz_mat rank, tensor m = 12 (anchor)", "-", None, False),
    ("bare_nmod_m12", "bare python-flint nmod_mat rank, tensor m = 12", "-", "bare_fmpz_m12", False),
    ("check_rank_m12", "check rank-tensor-m12.json", "<= 1.2x bare", "bare_fmpz_m12", False),
    ("rank_tool_m12", "rank: tensor kernel m = 12 (generator, build + FLINT)", "finishes", "bare_fmpz_m12", False),
    ("gap_histogram_3000", "gap histogram of a 3000-word code", "< 1 s", None, False),
    ("bound_m24", "lower bound search m = 24, n = 3", "seconds", None, False),
    ("check_lower_m24", "check lower bound m = 24, n = 3 (2576 words)", "seconds", None, False),
    ("check_linear_m64", "check linear-code lower bound m = 64, n = 8 (RM(2,6))", "seconds", None, False),
    ("upper_m16", "upper: level-kernel search m = 16, n = 3", "seconds", None, False),
    ("table_m4_64", "table --m 4..64 --n 3..8 (one process)", "< 60 s", None, True),
    ("upper_m24", "upper: level-kernel search m = 24, n = 3", "-", None, True),
    ("sympy_rank_m7", "rank: sympy Matrix.rank, tensor m = 7", "-", "bare_fmpz_m12", True),
    ("numpy_float_rank_m12", "rank: numpy float matrix_rank, tensor m = 12 (not exact)", "-", "bare_fmpz_m12", True),
]


def run_job(name: str) -> dict:
    """Set up, then time the job's run (CPU and wall seconds of that region only)."""
    run = globals()[f"job_{name}"]()
    cpu, wall = time.process_time(), time.perf_counter()
    detail = run()
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "detail": detail}


def measure(name: str, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, __file__, "--job", name], capture_output=True, text=True)
        if out.returncode != 0:
            return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
        runs.append(json.loads(out.stdout))
    cpu = [r["cpu"] for r in runs]
    return {"median": statistics.median(cpu), "lo": min(cpu), "hi": max(cpu), "wall": statistics.median(r["wall"] for r in runs), "detail": runs[-1]["detail"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--all", action="store_true", help="also the slow or illustrative rows")
    ap.add_argument("--only", default="", help="rows whose job name contains this (anchors are added)")
    ap.add_argument("--job", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.job:
        print(json.dumps(run_job(args.job)))
        return 0
    rows = [r for r in ROWS if (args.all or not r[4]) and args.only in r[0]]
    wanted = {r[0] for r in rows} | {r[3] for r in rows if r[3]}
    results = {name: measure(name, args.repeats) for name in [r[0] for r in ROWS if r[0] in wanted]}
    print(f"CPU seconds of the measured region, {args.repeats} runs each in a fresh process; ratio = median / anchor median")
    print("| benchmark | target | median s | spread s | wall s | anchor | ratio | detail |")
    print("|---|---|---:|---:|---:|---|---:|---|")
    for name, label, target, anchor, _ in rows:
        r = results[name]
        if "error" in r:
            print(f"| {label} | {target} | - | - | - | - | - | FAILED: {r['error']} |")
            continue
        ratio = ""
        if anchor and "median" in results[anchor]:
            a = results[anchor]["median"]
            ratio = f"{r['median'] / a:.3f}" if r["median"] >= a else f"1/{a / r['median']:.1f}"
        print(f"| {label} | {target} | {r['median']:.3f} | {r['lo']:.3f}..{r['hi']:.3f} | {r['wall']:.2f} | {anchor or ''} | {ratio} | {r['detail']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
