"""Timing table for the project's speed targets (run through scripts/bench)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
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


def bound_m24():
    out = subprocess.run([sys.executable, "-m", "kernelbounds", "bound", "--m", "24", "--n", "3", "--json"], capture_output=True, text=True, check=True)
    return out.stdout.strip()[:70] + "..."


BENCHES = [
    ("U2 by level classes, m = 64, n = 3", "seconds", level_classes_u2_m64),
    ("gap histogram of a 3000-word code", "< 1 s", code_verify_3000),
    ("kernelbounds bound --m 24 --n 3 --json", "seconds", bound_m24),
    ("check lower bound m = 24, n = 3 (2576 words)", "seconds", check_lower_m24),
    ("kernelbounds table --m 4..64 --n 3..8", "< 60 s", table_cmd),
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
