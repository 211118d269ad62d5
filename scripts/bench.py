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
    return f"code {v.code}: r >= {v.summary.split('r >= ')[1].split(' ')[0]} from 2^22 codewords, no pairwise pass"


def upper_m(m):
    def run():
        from kernelbounds.upperbound import search

        c = search(m, 3)
        return f"rank {c.rank} < 2^{m} = {2**m}"

    return run


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


def prebuild():
    import flint

    _PREBUILT["m12"] = flint.fmpz_mat(_tensor_rows(12))
    return "fmpz_mat of the 4096 x 4096 tensor kernel"


def work_bombs():
    """Every work bomb of lab/hostile.py refused by the work estimate (issue 11: < 1 s each)."""
    from kernelbounds.checker import check_bytes
    from kernelbounds.lab.hostile import work_bombs as bombs

    times, codes = [], set()
    for _, data, _ in bombs():
        t0 = time.perf_counter()
        codes.add(check_bytes(data).code)
        times.append(time.perf_counter() - t0)
    return f"{len(times)} bombs, exit codes {sorted(codes)}, slowest refusal {max(times):.3f} s"


def check_tiny():
    """Anchor for the work-bomb row: a tiny valid certificate."""
    from kernelbounds.checker import check_file

    path = Path(__file__).resolve().parents[1] / "certificates" / "transcript-q3-s4.json"
    return f"code {check_file(str(path)).code}"


BENCHES = [
    ("check: a tiny valid certificate (anchor for the next row)", "-", check_tiny),
    ("check: refuse every work bomb (issue 11), total", "< 1 s each", work_bombs),
    ("U2 by level classes, m = 64, n = 3", "seconds", level_classes_u2_m64),
    ("gap histogram of a 3000-word code", "< 1 s", code_verify_3000),
    ("kernelbounds bound --m 24 --n 3 --json", "seconds", bound_m24),
    ("check lower bound m = 24, n = 3 (2576 words)", "seconds", check_lower_m24),
    ("kernelbounds table --m 4..64 --n 3..8", "< 60 s", table_cmd),
    ("check linear-code lower bound m = 64, n = 8 (RM(2,6))", "seconds", check_linear_m64),
    ("upper: level-kernel search m = 16, n = 3", "seconds", upper_m(16)),
    ("upper: level-kernel search m = 24, n = 3", "-", upper_m(24)),
    ("rank: tensor kernel m = 12 (build + FLINT)", "finishes", rank_tool_m12),
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
