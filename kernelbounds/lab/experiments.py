"""Experiments that reproduce the paper (issues 7 and 16).

(a) the witness suite: the certified m = 24, n = 3 witness family (190 inputs, r >= 8),
    nonnegative kernel heads of feature rank r (free per-token features, training.py, and
    bit-computed features, models.py) and the trained dense softmax (models.py);
(b) out of distribution: for each problem size (m, pool size), heads are trained on
    sequences from a train pool of random m-bit tokens and tested on sequences from a
    disjoint pool of fresh random tokens (every position scored; a sequence counts as
    correct when all its outputs are within 1/2: "exact-sequence accuracy").

Every trained head is re-evaluated exactly (kernelbounds.lab.exact: integers for kernel
heads, arb balls for softmax).  Falsification guard (THEORY §3 L4): a head whose exact
kernel rank is below a certified bound and that solves that certified family would
contradict the theory: the run stops (exit 5) and keeps the head as a file.

Run: scripts/experiments (full; writes docs/experiments.md, .json, .png) or
python -m kernelbounds.lab.experiments --quick (smoke test, writes nothing unless --out).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from . import exact, models, training
from ..upperbounds.constructions import softmax as u3
from ..heads.evaluate import evaluate
from ..lowerbounds.assemble import smallest_witness, witness_family
from . import training

HALF = Fraction(1, 2)
CONTRADICTION = 5
TRAIN_EVAL = 1024  # train sequences re-evaluated exactly (the in-distribution accuracy)


class Falsified(RuntimeError):
    """A trained head contradicts a certified lower bound."""


@dataclass
class Result:
    setting: str
    model: str
    r: int | str
    seed: int
    worst_error: Fraction | float | None
    accuracy: float  # exact-sequence accuracy on the evaluation (test) sequences
    rank: int | str
    seconds: float  # CPU seconds of the job (one thread)
    train_accuracy: float | None = None  # exact, on the first TRAIN_EVAL train sequences (in distribution)
    recipe: str = ""
    error_bound: float | None = None  # softmax: largest arb radius
    float_worst_error: float | None = None  # the float64 model's own worst error (reported, never decides)

    def to_json(self) -> dict:
        d = asdict(self)
        w = self.worst_error
        d["worst_error"] = None if w is None else float(w)
        if isinstance(w, Fraction):
            d["worst_error_exact"] = f"{w.numerator}/{w.denominator}" if w.denominator != 1 else str(w.numerator)
        return d


# ----- problem sizes ---------------------------------------------------------------

@dataclass(frozen=True)
class Size:
    """An OOD problem: m-bit tokens, disjoint train/test pools of `pool` random tokens."""

    m: int
    pool: int
    train_seqs: int = 4096
    test_seqs: int = 1024
    n: int = 3

    @property
    def name(self) -> str:
        return f"ood m={self.m} pool={self.pool}"


def pools(size: Size, seed: int = 0) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """(train sequences, test sequences): tokens drawn without replacement, test pool disjoint."""
    rng = random.Random(1000 * size.m + seed)
    tokens = rng.sample(range(2**size.m), 2 * size.pool)
    tr, te = tokens[: size.pool], tokens[size.pool :]
    draw = lambda pool, count: [tuple(rng.choice(pool) for _ in range(size.n)) for _ in range(count)]  # noqa: E731
    train, test = draw(tr, size.train_seqs), draw(te, size.test_seqs)
    assert not set(tr) & {z for s in test for z in s}
    return train, test


# ----- the falsification guard -----------------------------------------------------

def guard(name: str, head_json, rank: int, solves: bool, bound: int | None, keep: Path) -> None:
    """Stop if a head of exact kernel rank < bound solves a family certified to need bound."""
    if bound is None or rank >= bound or not solves:
        return
    keep.mkdir(parents=True, exist_ok=True)
    path = keep / f"FALSIFYING-head-{name.replace(' ', '_').replace('=', '')}.json"
    path.write_text(json.dumps(head_json() if callable(head_json) else head_json, indent=1))
    raise Falsified(f"a rank-{rank} head solves the family certified to need r >= {bound}; kept as {path}")


def certified_family(m: int, n: int = 3):
    """(inputs, bound) of the best pairwise lower bound for m (THEORY §3 L4), or (None, None)."""
    from ..lowerbounds.assemble import LowerBound, best, witness_family

    lb = best(m, n)
    if not isinstance(lb, LowerBound):
        return None, None
    return witness_family(lb), lb.bound


def guard_bits(name: str, model: models.Model, family, bound: int | None, keep: Path) -> None:
    """The guard for a bit-feature kernel head on a certified family of its m."""
    if family is None or bound is None or model.r >= bound:
        return  # rank <= r >= bound: no contradiction is possible
    res = exact.evaluate_kernel(model, family, "first")
    tokens = sorted({z for s in family for z in s})
    rank = exact.kernel_rank(model, tokens)
    guard(name, lambda: exact.table_head(model, tokens).to_json(), rank, res.failures == 0, bound, keep)


# ----- jobs ------------------------------------------------------------------------

def run_kernel(name: str, train_d, eval_inputs, r: int, seed: int, steps: int, bound: int | None, keep: Path) -> Result:
    """Free per-token features (training.py), evaluated exactly on `eval_inputs`."""
    t0 = time.process_time()
    params = training.train("kernel", train_d, r, seed, steps)
    head = training.to_table_head(params, train_d)
    ev = evaluate(head, eval_inputs, 0)
    acc = 1 - ev.failures / ev.inputs
    if ev.negative_weights == 0:
        guard(f"{name}-table-r{r}-seed{seed}", head.to_json, ev.kernel_rank, ev.failures == 0, bound, keep)
    return Result(name, "kernel (free per-token features)", r, seed, ev.worst_error, acc, ev.kernel_rank, time.process_time() - t0, recipe=f"Adam lr 0.03, {steps} full-batch steps, squared error")


def run_bits(name: str, kind: str, m: int, train, test, scored: str, r: int, seed: int, recipe: models.Recipe, guard_family=None, bound=None, keep: Path = Path("out")) -> Result:
    """A bit-feature head (models.py) trained on `train`, evaluated exactly on `test`."""
    t0 = time.process_time()
    ex = models.examples(train, m, scored)
    model = models.train(kind, ex, m, r, seed, recipe)
    fw = float(models.float_errors(model, models.examples(test, m, scored)).max())
    if kind == "softmax":
        train_acc = exact.evaluate_softmax(model, train[:TRAIN_EVAL], scored).seq_accuracy
        res = exact.evaluate_softmax(model, test, scored)
        label = "dense softmax (trained)" if recipe.att else "dense softmax (trained, no attention loss)"
        return Result(name, label, f"d={r}", seed, res.worst_error, res.seq_accuracy, "-", time.process_time() - t0, train_acc, recipe.describe(), res.error_bound, fw)
    train_acc = exact.evaluate_kernel(model, train[:TRAIN_EVAL], scored).seq_accuracy
    res = exact.evaluate_kernel(model, test, scored)
    tokens = sorted({z for s in test for z in s})
    rank = exact.kernel_rank(model, sorted(set(tokens) | {z for s in train for z in s}))
    if scored == "first":  # the evaluation set is itself a certified family
        guard(f"{name}-bits-r{r}-seed{seed}", lambda: exact.table_head(model, tokens).to_json(), rank, res.failures == 0, bound, keep)
    guard_bits(f"{name}-bits-r{r}-seed{seed}-certified", model, guard_family, bound if guard_family is not None else None, keep)
    return Result(name, "kernel (exp features of bits)", r, seed, res.worst_error, res.seq_accuracy, rank, time.process_time() - t0, train_acc, recipe.describe(), None, fw)


def u3_exact(name: str, m: int, n: int, inputs, scored: str = "first") -> Result:
    """U3 (dense softmax, W_Q = -ln(2n-1) I, W_K = I), exact rational weights."""
    t0 = time.process_time()
    head = u3(m, n).head()
    rows = exact.scored_rows(inputs, scored)
    ok = [True] * len(inputs)
    worst = Fraction(0)
    for k, i in rows:
        e = head.error(inputs[k], i)
        worst = max(worst, e)
        ok[k] = ok[k] and e < HALF
    return Result(name, "dense softmax (U3, exact)", f"d={m}", 0, worst, sum(ok) / len(ok), "-", time.process_time() - t0)


def witness_inputs():
    lb = smallest_witness(24, 3, 8)
    return witness_family(lb), lb.bound


# ----- the plan --------------------------------------------------------------------

@dataclass
class Plan:
    ranks: list[int]
    seeds: list[int]
    sizes: list[Size]
    kernel_recipe: models.Recipe
    softmax_recipe: models.Recipe
    table_steps: int
    witness: bool = True
    ablation: bool = True
    notes: list[str] = field(default_factory=list)


def full_plan() -> Plan:
    return Plan(
        ranks=[1, 2, 4, 8, 16, 32, 64, 128],
        seeds=[0, 1, 2],
        sizes=[Size(8, 128, 16384), Size(12, 1024, 16384), Size(16, 4096, 16384)],
        kernel_recipe=models.Recipe(steps=2000, lr=0.05, batch=512, att=1.0, init=0.5, readout_init="identity"),
        softmax_recipe=models.Recipe(steps=3000, lr=0.02, batch=512, att=1.0, init=0.1),
        table_steps=3000,
    )


def quick_plan() -> Plan:
    return Plan(
        ranks=[2, 32],
        seeds=[0],
        sizes=[Size(6, 16, train_seqs=256, test_seqs=128)],
        kernel_recipe=models.Recipe(steps=200, lr=0.05, batch=256, att=1.0, init=0.5, readout_init="identity"),
        softmax_recipe=models.Recipe(steps=300, lr=0.02, batch=256, att=1.0, init=0.1),
        table_steps=0,
        ablation=False,
    )


def jobs(plan: Plan, keep: Path) -> list[tuple]:
    """Independent jobs (function name, args); each runs in its own process in the full run."""
    out = []
    if plan.witness:
        for r in plan.ranks:
            for s in plan.seeds:
                out.append(("witness_bits", (r, s, plan.kernel_recipe, keep)))
                if plan.table_steps:
                    out.append(("witness_table", (r, s, plan.table_steps, keep)))
        for s in plan.seeds:
            out.append(("witness_softmax", (s, plan.softmax_recipe)))
            if plan.ablation:
                out.append(("witness_softmax", (s, _no_att(plan.softmax_recipe))))
    for size in plan.sizes:
        for r in plan.ranks:
            for s in plan.seeds:
                out.append(("ood_bits", (size, r, s, plan.kernel_recipe, keep)))
        for s in plan.seeds:
            out.append(("ood_softmax", (size, s, plan.softmax_recipe)))
            if plan.ablation:
                out.append(("ood_softmax", (size, s, _no_att(plan.softmax_recipe))))
    # slowest first keeps both workers busy to the end
    out.sort(key=lambda j: -(j[1][1] if j[0] == "ood_bits" else j[1][0] if j[0].startswith("witness_") and j[0] != "witness_softmax" else 0))
    return out


def _no_att(recipe: models.Recipe) -> models.Recipe:
    return models.Recipe(**{**asdict(recipe), "att": 0.0})


_CACHE: dict = {}


def _witness():
    if "w" not in _CACHE:
        _CACHE["w"] = witness_inputs()
    return _CACHE["w"]


def _ood(size: Size):
    if size not in _CACHE:
        _CACHE[size] = (*pools(size), *certified_family(size.m, size.n))
    return _CACHE[size]


def run_job(job: tuple) -> Result:
    kind, args = job
    if kind == "witness_bits":
        r, s, recipe, keep = args
        fam, bound = _witness()
        return run_bits("witness", "kernel", 24, fam, fam, "first", r, s, recipe, bound=bound, keep=keep)
    if kind == "witness_table":
        r, s, steps, keep = args
        fam, bound = _witness()
        return run_kernel("witness", training.make_data(fam, 24), fam, r, s, steps, bound, keep)
    if kind == "witness_softmax":
        s, recipe = args
        fam, _ = _witness()
        return run_bits("witness", "softmax", 24, fam, fam, "first", 24, s, recipe)
    if kind == "ood_bits":
        size, r, s, recipe, keep = args
        train, test, fam, bound = _ood(size)
        return run_bits(size.name, "kernel", size.m, train, test, "all", r, s, recipe, fam, bound, keep)
    if kind == "ood_softmax":
        size, s, recipe = args
        train, test, _, _ = _ood(size)
        return run_bits(size.name, "softmax", size.m, train, test, "all", size.m, s, recipe)
    raise ValueError(kind)


def _init_worker() -> None:
    os.environ["OMP_NUM_THREADS"] = "1"


def run_all(plan: Plan, keep: Path, workers: int) -> list[Result]:
    todo = jobs(plan, keep)
    bar = _progress(len(todo))
    results = []
    if workers <= 1:
        for job in todo:
            results.append(run_job(job))
            bar(1)
    else:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers, initializer=_init_worker, maxtasksperchild=8) as pool:
            for res in pool.imap_unordered(run_job, todo):
                results.append(res)
                bar(1)
    bar(None)
    for size in plan.sizes:
        _, test, _, _ = _ood(size)
        results.append(u3_exact(size.name, size.m, size.n, test, "all"))
    if plan.witness:
        fam, _ = _witness()
        results.append(u3_exact("witness", 24, 3, fam))
    return results


def _progress(total: int):
    """A tqdm bar on a terminal, nothing otherwise."""
    if not sys.stderr.isatty():
        return lambda k: None
    try:
        from tqdm import tqdm
    except ImportError:  # the [lab] extra is not installed
        return lambda k: None
    bar = tqdm(total=total, unit="run", file=sys.stderr)
    return lambda k: bar.close() if k is None else bar.update(k)


# ----- analysis --------------------------------------------------------------------

def upper_bound(m: int, n: int = 3) -> tuple[int, str]:
    """The least certified upper bound for (m, n) with any features, and its method: the
    hub's answer (kernelbounds.bounds)."""
    from ..bounds import upper

    side = upper(m, n)
    return side.value, side.method + (f" (certificate {side.certificate})" if side.certificate else "")


def medians(results: list[Result], setting: str, model_prefix: str = "kernel (exp", key: str = "accuracy") -> dict[int, float]:
    rows = [x for x in results if x.setting == setting and x.model.startswith(model_prefix)]
    return {r: float(np.median([getattr(x, key) for x in rows if x.r == r])) for r in sorted({x.r for x in rows})}


def transition(med: dict[int, float]) -> dict:
    """The rank of the largest jump in median accuracy, and the least r reaching 0.9 / 1.0."""
    rs = sorted(med)
    jumps = [(med[b] - med[a], b) for a, b in zip(rs, rs[1:])]
    jump = max(jumps) if jumps else (0.0, None)
    first = lambda level: next((r for r in rs if med[r] >= level), None)  # noqa: E731
    return {"largest_jump_at": jump[1], "jump": round(jump[0], 4), "first_r_median_acc_0.9": first(0.9), "first_r_exact": first(1.0)}


def summary(results: list[Result], plan: Plan) -> dict:
    out = {}
    for size in plan.sizes:
        from ..lowerbounds.assemble import best

        ub, ub_what = upper_bound(size.m, size.n)
        med = medians(results, size.name)
        soft = [x for x in results if x.setting == size.name and x.model == "dense softmax (trained)"]
        out[size.name] = {
            "m": size.m, "pool": size.pool, "train_sequences": size.train_seqs, "test_sequences": size.test_seqs,
            "certified_lower_bound": best(size.m, size.n).bound, "upper_bound": ub, "upper_bound_from": ub_what,
            "median_accuracy_by_r": med, "transition": transition(med),
            "median_in_distribution_accuracy_by_r": (ind := medians(results, size.name, key="train_accuracy")),
            "in_distribution_transition": transition(ind),
            "softmax_worst_error_max": max((float(x.worst_error) for x in soft), default=None),
            "softmax_min_accuracy": min((x.accuracy for x in soft), default=None),
        }
    if plan.witness:
        soft = [x for x in results if x.setting == "witness" and x.model == "dense softmax (trained)"]
        out["witness"] = {
            "median_accuracy_by_r_bits": medians(results, "witness"),
            "median_accuracy_by_r_table": medians(results, "witness", "kernel (free"),
            "softmax_worst_error_max": max((float(x.worst_error) for x in soft), default=None),
        }
    return out


# ----- main ------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kernelbounds.lab.experiments")
    ap.add_argument("--quick", action="store_true", help="smoke-test size: one small OOD size, two ranks, one seed, no witness suite")
    ap.add_argument("--out", default=None, help="folder for experiments.md/.json/.png (default: docs for a full run, nothing for --quick)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2; 1 runs in this process)")
    ap.add_argument("--render", metavar="JSON", help="only rewrite experiments.md/.png in --out (default docs) from a results file")
    args = ap.parse_args(argv)
    if args.render:
        return render(Path(args.render), Path(args.out or "docs"))
    plan = quick_plan() if args.quick else full_plan()
    if args.quick:
        plan.witness = False
    out = Path(args.out) if args.out else (None if args.quick else Path("docs"))
    keep = out or Path("out")
    t0 = time.perf_counter()
    try:
        results = run_all(plan, keep, 1 if args.quick else args.workers)
    except Falsified as exc:
        print(f"FALSIFIED: {exc}", file=sys.stderr)
        return CONTRADICTION
    summ = summary(results, plan)
    text = table(results)
    print(text)
    print(json.dumps(summ, indent=1, default=str))
    wall, cpu = time.perf_counter() - t0, _cpu_seconds()
    print(f"total {wall:.0f} s wall-clock, {cpu:.0f} CPU-seconds", file=sys.stderr)
    if out is not None:
        write(out, results, summ, plan, wall, cpu)
    return 0


def table(results: list[Result]) -> str:
    lines = ["| setting | model | r | seed | worst error (exact) | test exact-sequence accuracy | in-distribution accuracy (exact, 1024 train seqs) | exact kernel rank | s |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    key = lambda x: (x.setting, x.model, x.r if isinstance(x.r, int) else 0, x.seed)  # noqa: E731
    for x in sorted(results, key=key):
        w = "undefined" if x.worst_error is None else f"{float(x.worst_error):.4f}"
        ta = "-" if x.train_accuracy is None else f"{x.train_accuracy:.3f}"
        lines.append(f"| {x.setting} | {x.model} | {x.r} | {x.seed} | {w} | {x.accuracy:.3f} | {ta} | {x.rank} | {x.seconds:.1f} |")
    return "\n".join(lines) + "\n"


def _cpu_seconds() -> float:
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def write(out: Path, results: list[Result], summ: dict, plan: Plan, seconds: float, cpu: float = 0.0) -> None:
    from ..certificate import write_atomic

    out.mkdir(parents=True, exist_ok=True)
    doc = {
        "generated_by": "scripts/experiments",
        "seconds": round(seconds),
        "cpu_seconds": round(cpu),
        "plan": {"ranks": plan.ranks, "seeds": plan.seeds, "sizes": [asdict(s) for s in plan.sizes],
                 "kernel_recipe": asdict(plan.kernel_recipe), "softmax_recipe": asdict(plan.softmax_recipe)},
        "summary": summ,
        "results": [x.to_json() for x in sorted(results, key=lambda x: (x.setting, x.model, str(x.r).zfill(4), x.seed))],
    }
    write_atomic(out / "experiments.json", json.dumps(doc, indent=1, default=str) + "\n")
    from . import experiments_report

    write_atomic(out / "experiments.md", experiments_report.markdown(results, summ, plan, table(results), seconds, cpu))
    experiments_report.plot(results, summ, plan, out / "experiments.png")


def render(path: Path, out: Path) -> int:
    """Rebuild the markdown and the plot from experiments.json (no training)."""
    from ..certificate import write_atomic
    from . import experiments_report

    doc = json.loads(path.read_text())
    results = []
    for d in doc["results"]:
        d = dict(d)
        ex = d.pop("worst_error_exact", None)
        if ex is not None:
            d["worst_error"] = Fraction(ex)
        results.append(Result(**d))
    pl = doc["plan"]
    plan = Plan(pl["ranks"], pl["seeds"], [Size(**s) for s in pl["sizes"]], models.Recipe(**pl["kernel_recipe"]), models.Recipe(**pl["softmax_recipe"]), 0, witness="witness" in doc["summary"])
    out.mkdir(parents=True, exist_ok=True)
    summ = summary(results, plan)
    write_atomic(out / "experiments.md", experiments_report.markdown(results, summ, plan, table(results), doc.get("seconds", 0), doc.get("cpu_seconds", 0)))
    experiments_report.plot(results, summ, plan, out / "experiments.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
