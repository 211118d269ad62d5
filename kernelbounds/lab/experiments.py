"""Reproduce the phase transition (issue 7): train heads of rank r on the certified
m = 24 witness family and on growing train/test pools, then evaluate every trained
kernel head exactly.  A head below the certified bound that solves the family would
falsify the theory: the run then stops loudly and keeps the head as a file.

Run: scripts/experiments (full) or python -m kernelbounds.lab.experiments --quick.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..bits import comp
from ..certificate import write_atomic
from ..codes import paley
from ..constructions import softmax as u3
from ..evaluate import evaluate
from ..lowerbound import smallest_witness, witness_family
from ..report import save_png
from . import training

HALF = Fraction(1, 2)


class Falsified(RuntimeError):
    """A trained head contradicts a certified lower bound."""


@dataclass
class Result:
    setting: str
    model: str
    r: int | str
    seed: int
    worst_error: Fraction | float | None
    accuracy: float
    rank: int | str
    seconds: float


def run_kernel(name: str, train_d, eval_inputs, r: int, seed: int, steps: int, bound: int | None, keep: Path) -> Result:
    t0 = time.perf_counter()
    params = training.train("kernel", train_d, r, seed, steps)
    head = training.to_table_head(params, train_d)
    ev = evaluate(head, eval_inputs, 0)
    acc = 1 - ev.failures / ev.inputs
    if bound is not None and ev.kernel_rank < bound and ev.failures == 0 and ev.negative_weights == 0:
        keep.mkdir(parents=True, exist_ok=True)
        path = keep / f"FALSIFYING-head-{name}-r{r}-seed{seed}.json"
        write_atomic(path, json.dumps(head.to_json(), indent=1, ensure_ascii=True) + "\n")
        raise Falsified(f"a rank-{ev.kernel_rank} head solves the family certified to need r >= {bound}; kept as {path}")
    return Result(name, "kernel", r, seed, ev.worst_error, acc, ev.kernel_rank, time.perf_counter() - t0)


def run_softmax(name: str, train_d, eval_d, seed: int, steps: int) -> Result:
    """Trained dense softmax (m-dimensional scores), evaluated at 50 digits (exp is irrational)."""
    t0 = time.perf_counter()
    params = training.train("softmax", train_d, 0, seed, steps)
    errs = training.softmax_errors_highprec(params, eval_d)
    worst = max(errs)
    return Result(name, "softmax (trained)", f"d={train_d.m}", seed, float(worst), sum(e < 0.5 for e in errs) / len(errs), "-", time.perf_counter() - t0)


def u3_exact(name: str, m: int, n: int, inputs) -> Result:
    """U3 (dense softmax, W_Q = -ln(2n-1) I, W_K = I), exact rational weights."""
    t0 = time.perf_counter()
    head = u3(m, n).head()
    errs = [head.error(inp, 0) for inp in inputs]
    worst = max(errs)
    return Result(name, "softmax (U3, exact)", f"d={m}", 0, worst, sum(e < HALF for e in errs) / len(errs), "-", time.perf_counter() - t0)


def witness_inputs():
    lb = smallest_witness(24, 3, 8)
    return witness_family(lb), lb.bound


def pool(words: list[int], m: int, size: int, rng: random.Random, exclude: set) -> list[tuple[int, int, int]]:
    """Random inputs (comp(c), a, b) over a fixed vocabulary, avoiding `exclude`."""
    out = set()
    while len(out) < size:
        q = comp(rng.choice(words), m)
        inp = (q, rng.choice(words), rng.choice(words))
        if inp not in exclude:
            out.add(inp)
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kernelbounds.lab.experiments")
    ap.add_argument("--quick", action="store_true", help="few ranks, one seed (the test-suite size)")
    ap.add_argument("--out", default="docs", help="folder for experiments.md and experiments.png")
    args = ap.parse_args(argv)
    ranks = [4, 16] if args.quick else [1, 2, 4, 8, 16, 32, 64]
    seeds = [0] if args.quick else [0, 1, 2]
    steps = 1500 if args.quick else 3000
    out = Path(args.out)
    results: list[Result] = []

    family, bound = witness_inputs()
    d = training.make_data(family, 24)
    print(f"(a) witness family: {len(family)} inputs, certified r >= {bound}", file=sys.stderr)
    for r in ranks:
        for seed in seeds:
            results.append(run_kernel("witness", d, family, r, seed, steps, bound, out))
            print(f"  r={r} seed={seed}: worst error {float(results[-1].worst_error):.4f}", file=sys.stderr)
    results.append(u3_exact("witness", 24, 3, family))
    results.append(run_softmax("witness", d, d, 0, steps))

    words = list(paley.paley(23).words)
    rng = random.Random(0)
    test = pool(words, 24, 256 if args.quick else 1024, rng, set())
    test_d = training.make_data(test, 24, sorted({z for w in words for z in (w, comp(w, 24))}))
    sizes = [64, 256] if args.quick else [64, 256, 1024]
    for size in sizes:
        train_inputs = pool(words, 24, size, rng, set(test))
        train_d = training.make_data(train_inputs, 24, test_d.tokens)
        for r in ([16] if args.quick else [1, 4, 16, 64]):
            for seed in seeds[:2]:
                res = run_kernel(f"pool {size} -> test {len(test)}", train_d, test, r, seed, steps, None, out)
                results.append(res)
        results.append(u3_exact(f"pool {size} -> test {len(test)}", 24, 3, test))
    report(results, bound, out, args.quick)
    return 0


def report(results: list[Result], bound: int, out: Path, quick: bool) -> None:
    lines = ["| setting | model | r | seed | worst error (exact) | accuracy | exact kernel rank | s |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for x in results:
        w = "undefined" if x.worst_error is None else f"{float(x.worst_error):.4f}"
        lines.append(f"| {x.setting} | {x.model} | {x.r} | {x.seed} | {w} | {x.accuracy:.3f} | {x.rank} | {x.seconds:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if quick:
        return
    out.mkdir(parents=True, exist_ok=True)
    (out / "experiments.md").write_text(
        "# Training experiments (generated by scripts/experiments)\n\n"
        f"Certified bound on the witness family: r >= {bound}. Accuracy = fraction of inputs with exact error < 1/2.\n"
        "Trained softmax errors are computed at 50 decimal digits (exp is irrational); all kernel heads exactly.\n\n" + text
    )
    plot(results, bound, out / "experiments.png")


def plot(results: list[Result], bound: int, path: Path) -> None:
    import matplotlib  # heavy: only when plotting

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    wit = [x for x in results if x.setting == "witness" and x.model == "kernel"]
    ranks = sorted({x.r for x in wit})
    for ax, key, label in ((axes[0], "worst", "worst error (exact)"), (axes[1], "acc", "exact-sequence accuracy")):
        for x in wit:
            ax.scatter(x.r, float(x.worst_error) if key == "worst" else x.accuracy, color="tab:blue", alpha=0.6)
        med = [np.median([float(x.worst_error) if key == "worst" else x.accuracy for x in wit if x.r == r]) for r in ranks]
        ax.plot(ranks, med, color="tab:blue", label="nonnegative kernel head (median over seeds)")
        u3r = next(x for x in results if x.setting == "witness" and x.model.startswith("softmax (U3"))
        ax.axhline(float(u3r.worst_error) if key == "worst" else u3r.accuracy, color="tab:green", linestyle="--", label="dense softmax (U3, exact)")
        ax.axvline(bound, color="tab:red", linestyle=":", label=f"certified bound r >= {bound}")
        if key == "worst":
            ax.axhline(0.5, color="gray", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("feature rank r")
        ax.set_ylabel(label)
        ax.legend(fontsize=7)
    fig.suptitle("m = 24, n = 3 witness family (190 inputs)")
    fig.tight_layout()
    save_png(fig, str(path))
    plt.close(fig)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Falsified as exc:
        print(f"FALSIFIED: {exc}", file=sys.stderr)
        sys.exit(4)
