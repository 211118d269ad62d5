"""Timing table for the project's speed targets (run through scripts/bench)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def timed(label, target, fn):
    t0 = time.perf_counter()
    detail = fn()
    return label, target, time.perf_counter() - t0, detail


def level_classes_u2_m64():
    from kernelbounds.classes import worst_error_by_classes
    from kernelbounds.constructions import tensor

    return f"worst error {worst_error_by_classes(tensor(64, 3).profile(), 64, 3).worst_error}"


def code_verify_3000():
    from kernelbounds.codes import golay
    from kernelbounds.codes.verify import gap_histogram

    words = golay.dodecads().words + golay.octads().words[:424]
    return f"{len(words)} words, {sum(gap_histogram(words, 24).values())} ordered pairs"


def table_cmd():
    out = subprocess.run([sys.executable, "-m", "kernelbounds", "table", "--m", "4..64", "--n", "3..8"], capture_output=True, text=True, check=True)
    return f"{out.stdout.count(chr(10)) - 2} rows"


def check_lower_m24():
    from kernelbounds.checker import check_file

    path = Path(__file__).resolve().parents[1] / "certificates" / "lower-position-independent-m24-n3.json"
    v = check_file(str(path))
    return f"code {v.code}: {v.summary[:60]}..."


def check_linear_m64():
    from kernelbounds.checker import check_file

    path = Path(__file__).resolve().parents[1] / "certificates" / "lower-position-independent-m64-n8.json"
    v = check_file(str(path))
    return f"code {v.code}: r >= {v.summary.split('r >= ')[1].split(' ')[0]} from 2^22 codewords, one row per orbit"


def evaluate_m24_rank64():
    """A random nonnegative rank-64 head (values v(z) = z) on the 13.3 M-input family."""
    import json

    import numpy as np

    from kernelbounds.evaluate import evaluate_family
    from kernelbounds.families import load_family
    from kernelbounds.heads import TableHead

    doc = json.loads((Path(__file__).resolve().parents[1] / "certificates" / "lower-position-independent-m24-n3.json").read_text())
    fam = load_family(doc)
    tokens = fam.tokens()
    bits = np.array([[(x >> i) & 1 for i in range(24)] for x in tokens], dtype=float)
    rng = np.random.default_rng(0)
    head = TableHead.from_arrays(rng.random((len(tokens), 64)), rng.random((len(tokens), 64)), bits, (bits, np.full(len(tokens), -0.25)), tokens=tokens, m=24)
    r = evaluate_family(head, fam)
    return f"{r.inputs} inputs, {r.rechecked} exact re-checks, {r.failures} failures, kernel rank {r.kernel_rank}"


def upper_m(m):
    def run():
        from kernelbounds.upperbound import search

        c = search(m, 3)
        return f"rank {c.rank} < 2^{m} = {2**m}"

    return run


def families_m20():
    """Every U4 level family at m = 20, n = 3 in its own process (2 worker processes)."""
    code = (
        "from kernelbounds import levelfamily as lf\n"
        "rs = lf.solve_families(lf.families() + lf.families(nonnegative=True), 20, 3, processes=2)\n"
        "print(' '.join(f'{r.found.family.name}:{r.rank}' for r in rs))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def check_slowest_level_family():
    """Check every committed level-family certificate; report the slowest."""
    from kernelbounds.checker import check_file

    paths = sorted((Path(__file__).resolve().parents[1] / "certificates").glob("upper-*.json"))
    times = sorted((check_file(str(p)).seconds, p.name) for p in paths)
    return f"{len(paths)} files, slowest {times[-1][1]} in {times[-1][0]:.2f} s"


def bound_m24():
    out = subprocess.run([sys.executable, "-m", "kernelbounds", "bound", "--m", "24", "--n", "3", "--json"], capture_output=True, text=True, check=True)
    return out.stdout.strip()[:70] + "..."


def _tensor_rows(m, c=None):
    from kernelbounds import rank

    return rank.kernel_rows(rank.named_kernel("tensor", m, c=c), m)


def rank_tool_m12():
    from kernelbounds import rank

    h = rank.named_kernel("tensor", 12)
    return f"rank {rank.flint_rank(rank.kernel_rows(h, 12))} (matrix built with numpy, then fmpz_mat.rank)"


_PREBUILT = {}


def bare_flint_m12():

    mat = _PREBUILT["m12"]
    t0 = time.perf_counter()
    r = mat.rank()
    return f"rank {r} in {time.perf_counter() - t0:.2f} s on a prebuilt fmpz_mat"


def sympy_rank(m):
    def run():
        import sympy

        return f"rank {sympy.Matrix(_tensor_rows(m)).rank()} (m = {m}, {2**m} x {2**m})"

    return run


def numpy_rank(m, c=None):
    def run():
        import numpy as np

        from kernelbounds import rank

        exact = rank.formula_rank(rank.named_kernel("tensor", m, c=c), m)
        got = np.linalg.matrix_rank(np.array(_tensor_rows(m, c), dtype=float))
        verdict = "correct" if got == exact else f"WRONG (exact {exact})"
        return f"float rank {got}: {verdict}"

    return run


def check_explicit_m8():
    from kernelbounds.checker import check_file

    path = Path(__file__).resolve().parents[1] / "certificates" / "explicit-head-m08-n3-r37.json"
    v = check_file(str(path))
    return f"code {v.code}: 65536 kernel pairs, 256 x 9 extremal minima (THEORY U5)"


def worst_error_m8():
    import json

    from kernelbounds import generalheads

    path = Path(__file__).resolve().parents[1] / "kernelbounds" / "data" / "heads" / "m08-n3-r37.json"
    err, _ = generalheads.worst_error(generalheads.from_tables(json.loads(path.read_text())))
    return f"worst error {err} (Dinkelbach over the extremal inputs)"


def farkas_m4_n8():
    from kernelbounds import farkas

    cert = farkas.farkas(4, 8)
    return f"{len(cert.multipliers)} exact multipliers (HiGHS vertex, FLINT null space)"


def prebuild():
    import flint

    _PREBUILT["m12"] = flint.fmpz_mat(_tensor_rows(12))
    return "fmpz_mat of the 4096 x 4096 tensor kernel"


# ---- issue 13: code search and orbit-form checks; each job in its own process, median of
# REPEATS runs, beside an anchor (the previous implementation, inlined here) as a ratio.
REPEATS = 3

_JOBS = {
    "tokens": "from kernelbounds.bits import tokens_of_weight\nT0 = time.perf_counter(); x = sum(1 for _ in tokens_of_weight(26, 8))",
    "tokens-anchor": (
        "from itertools import combinations\nT0 = time.perf_counter()\n"
        "x = sum(1 for _ in (sum(1 << i for i in s) for s in combinations(range(26), 8)))"
    ),
    "lexicode": "from kernelbounds.codes.lexicode import lexicode\nT0 = time.perf_counter(); x = lexicode(24, 8, 4, 3000).size",
    "lexicode-anchor": (
        "import numpy as np\nfrom kernelbounds.bits import tokens_of_weight\nfrom kernelbounds.codes.verify import limbs\n"
        "T0 = time.perf_counter()\nwords = list(tokens_of_weight(24, 8)); arr = limbs(words, 24)\n"
        "alive = np.ones(len(words), dtype=bool); kept = []; start = 0\n"
        "while len(kept) < 3000:\n"
        "    free = np.flatnonzero(alive[start:])\n"
        "    if free.size == 0: break\n"
        "    pick = start + int(free[0]); kept.append(words[pick])\n"
        "    alive &= np.bitwise_count(arr & arr[pick]).sum(axis=1) <= 4; alive[pick] = False; start = pick + 1\n"
        "x = len(kept)"
    ),
    "gaps": (
        "from kernelbounds.codes import golay\nfrom kernelbounds.codes.verify import gap_histogram\n"
        "words = golay.dodecads().words + golay.octads().words[:424]\nT0 = time.perf_counter(); x = sum(gap_histogram(words, 24).values())"
    ),
    "orbit-check-m64": (
        "from kernelbounds.checker import check_file\nT0 = time.perf_counter()\n"
        "x = check_file('certificates/lower-position-independent-m64-n3.json').code"
    ),
    "uniform-check-m64-anchor": (
        "from kernelbounds import lowerbound\nfrom kernelbounds.checker import check_bytes\nfrom kernelbounds.certificate import canonical_json\n"
        "from kernelbounds.codes.linear import reed_muller\n"
        "data = canonical_json(lowerbound.assemble_linear(reed_muller(2, 6), 32, 3).certificate()).encode()\n"
        "T0 = time.perf_counter(); x = check_bytes(data).code"
    ),
}


def _job_seconds(name: str) -> float:
    """Median over REPEATS fresh processes of the job's timed part."""
    root = Path(__file__).resolve().parents[1]
    code = "import time\n" + _JOBS[name] + "\nprint(time.perf_counter() - T0, x)"
    times = []
    for _ in range(REPEATS):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
        times.append(float(out.stdout.split()[0]))
    return sorted(times)[len(times) // 2]


def versus(job: str, anchor: str):
    def run():
        t, a = _job_seconds(job), _job_seconds(anchor)
        return f"median of {REPEATS} processes {t:.2f} s; anchor ({anchor}) {a:.2f} s; ratio {t / a:.2f}"

    return run


BENCHES = [
    ("tokens_of_weight(26, 8): 1,562,275 tokens", "ratio < 0.5", versus("tokens", "tokens-anchor")),
    ("lexicode m = 24, w = 8, intersections <= 4", "ratio < 0.3", versus("lexicode", "lexicode-anchor")),
    ("gap histogram of a 3000-word code (np.bincount)", "< 1 s", versus("gaps", "gaps")),
    ("check orbit-form lower bound m = 64, n = 3 (1,828,134 words, 3 orbits)", "< 60 s", versus("orbit-check-m64", "uniform-check-m64-anchor")),
    ("U2 by level classes, m = 64, n = 3", "seconds", level_classes_u2_m64),
    ("gap histogram of a 3000-word code", "< 1 s", code_verify_3000),
    ("kernelbounds bound --m 24 --n 3 --json", "seconds", bound_m24),
    ("check lower bound m = 24, n = 3 (2576 words)", "seconds", check_lower_m24),
    ("kernelbounds table --m 4..64 --n 3..8", "< 60 s", table_cmd),
    ("check lower bound m = 64, n = 8 (RM(2,6) weight 32, orbit form)", "< 60 s", check_linear_m64),
    ("evaluate: rank-64 head on the m = 24, n = 3 family (13.3 M inputs)", "< 120 s", evaluate_m24_rank64),
    ("upper: level-kernel search m = 16, n = 3", "seconds", upper_m(16)),
    ("upper: level-kernel search m = 24, n = 3", "-", upper_m(24)),
    ("upper: every U4 level family m = 20, n = 3 (least rank, 2 processes)", "< 300 s", families_m20),
    ("check: every committed level-family certificate", "each < 5 s", check_slowest_level_family),
    ("rank: tensor kernel m = 12 (build + FLINT)", "finishes", rank_tool_m12),
    ("check explicit-head m = 8, n = 3, rank 37 (928 KB)", "< 60 s", check_explicit_m8),
    ("exact worst error of that head (generator)", "-", worst_error_m8),
    ("rank-one Farkas certificate m = 4, n = 8", "seconds", farkas_m4_n8),
    ("rank: building the fmpz_mat alone (m = 12)", "-", prebuild),
    ("rank: bare FLINT on the prebuilt matrix (m = 12)", "-", bare_flint_m12),
    ("rank: sympy Matrix.rank, tensor m = 7 (m = 8 did not finish in 5 min)", "-", sympy_rank(7)),
    ("rank: sympy Matrix.rank, tensor m = 6", "-", sympy_rank(6)),
    ("rank: numpy matrix_rank, tensor m = 12 (c = 1/5)", "-", numpy_rank(12)),
    ("rank: numpy matrix_rank, tensor m = 9 (c = 99/100)", "-", numpy_rank(9, __import__("fractions").Fraction(99, 100))),
]


def main() -> int:
    rows = [timed(label, target, fn) for label, target, fn in BENCHES]
    print("| benchmark | target | seconds | detail |")
    print("|---|---|---:|---|")
    for label, target, secs, detail in rows:
        print(f"| {label} | {target} | {secs:.2f} | {detail} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
