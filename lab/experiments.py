"""Experiments that reproduce the paper.

(a) the witness suite: the certified m = 24, n = 3 witness family (190 inputs, r >= 8),
    nonnegative kernel heads of feature rank r (free per-token features, training.py, and
    bit-computed features, models.py) and the trained dense softmax (models.py);
(b) out of distribution: for each problem size (m, pool size), heads are trained on
    sequences from a train pool of random m-bit tokens and tested on sequences from a
    disjoint pool of fresh random tokens (every position scored; a sequence counts as
    correct when all its outputs are within 1/2: "exact-sequence accuracy");
(c) the structured OOD reading: train and test sets are the witness families
    (THEORY §3 L4) of two disjoint sets of words of one Paley code, the test words being
    the shortest prefix whose certified bound reaches 8, 16 or 64 (the query's output is
    scored, as in the witness suite).

Dense softmax recipes are named in every row (``recipe_name``) with whether
the attention distribution was supervised; the supervised recipe is an ablation.

Every trained head is re-evaluated exactly (lab.exact: integers for kernel
heads, arb balls for softmax).  Falsification guard (THEORY §3 L4): a head whose exact
kernel rank is below a certified bound and that solves that certified family would
contradict the theory: the run stops (exit 5) and keeps the head as a file.

Run: scripts/experiments (full; writes docs/experiments.md, .json, .png) or
python -m lab.experiments --quick (smoke test, writes nothing unless --out).
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

from lab import exact, models, training
from kernelbounds.upperbounds.constructions import softmax as u3
from kernelbounds.heads.evaluate import evaluate
from kernelbounds.lowerbounds.assemble import smallest_witness, witness_family

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
    recipe_name: str = ""  # dense softmax: the named recipe (SOFTMAX_RECIPES)
    attention_supervised: bool | None = None  # dense softmax: was the attention loss on?

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


@dataclass(frozen=True)
class CodeSize:
    """A structured OOD problem: the test set is the witness family (THEORY §3 L4)
    of the shortest prefix of the Paley code of prime q (padded to m bits) whose certified
    bound is >= target; the train set is the witness family of the code's other words."""

    m: int
    q: int
    target: int
    n: int = 3

    @property
    def name(self) -> str:
        return f"structured m={self.m} bound>={self.target}"


def structured_pools(cs: CodeSize):
    """(train family, test family, test bound, train bound, description): disjoint code words."""
    from kernelbounds.lowerbounds.assemble import assemble
    from kernelbounds.lowerbounds.codes import Code
    from kernelbounds.lowerbounds.codes.paley import paley

    code = paley(cs.q, cs.m)
    k = next((k for k in range(2, code.size) if assemble(code.prefix(k), cs.n).bound >= cs.target), None)
    if k is None:
        raise ValueError(f"{code.name}: no prefix certifies r >= {cs.target} with words left to train on")
    test_lb = assemble(code.prefix(k), cs.n)
    train_lb = assemble(Code(f"{code.name}[{k}:]", cs.m, code.words[k:]), cs.n)
    train, test = witness_family(train_lb), witness_family(test_lb)
    shared = {z for s in train for z in s} & {z for s in test for z in s}
    info = {"code": code.name, "test_words": k, "train_words": code.size - k, "test_bound": test_lb.bound, "train_bound": train_lb.bound,
            "test_inputs": len(test), "train_inputs": len(train), "shared_tokens": len(shared)}
    return train, test, test_lb.bound, train_lb.bound, info


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
    from kernelbounds.lowerbounds.assemble import LowerBound, best, witness_family

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


def run_bits(name: str, kind: str, m: int, train, test, scored: str, r: int, seed: int, recipe: models.Recipe, guard_family=None, bound=None, keep: Path = Path("out"),
             recipe_name: str = "", guard_bound: int | None = None) -> Result:
    """A bit-feature head (models.py) trained on `train`, evaluated exactly on `test`.
    `bound` is the certified bound of `test` when scored == "first" (else of `guard_family`);
    `guard_bound`, when given, is the certified bound of `guard_family`."""
    t0 = time.process_time()
    ex = models.examples(train, m, scored)
    model = curriculum(kind, m, r, seed, recipe, train, test, scored) if recipe.pretrain_steps else models.train(kind, ex, m, r, seed, recipe)
    fw = float(models.float_errors(model, models.examples(test, m, scored)).max())
    if kind == "softmax":
        train_acc = exact.evaluate_softmax(model, train[:TRAIN_EVAL], scored).seq_accuracy
        res = exact.evaluate_softmax(model, test, scored)
        return Result(name, softmax_label(recipe_name), f"d={r}", seed, res.worst_error, res.seq_accuracy, "-", time.process_time() - t0, train_acc, recipe.describe(), res.error_bound, fw,
                      recipe_name, recipe.att > 0)
    train_acc = exact.evaluate_kernel(model, train[:TRAIN_EVAL], scored).seq_accuracy
    res = exact.evaluate_kernel(model, test, scored)
    tokens = sorted({z for s in test for z in s})
    rank = exact.kernel_rank(model, sorted(set(tokens) | {z for s in train for z in s}))
    if scored == "first":  # the evaluation set is itself a certified family
        guard(f"{name}-bits-r{r}-seed{seed}", lambda: exact.table_head(model, tokens).to_json(), rank, res.failures == 0, bound, keep)
    gb = guard_bound if guard_bound is not None else bound
    guard_bits(f"{name}-bits-r{r}-seed{seed}-certified", model, guard_family, gb if guard_family is not None else None, keep)
    return Result(name, "kernel (exp features of bits)", r, seed, res.worst_error, res.seq_accuracy, rank, time.process_time() - t0, train_acc, recipe.describe(), None, fw)


PRETRAIN_TOKENS, PRETRAIN_SEQS = 4096, 16384


def pretrain_sequences(m: int, n: int, seed: int, exclude: set[int]) -> list[tuple[int, ...]]:
    """Sequences of PRETRAIN_TOKENS random m-bit tokens, none of them in `exclude` (the test tokens)."""
    rng = random.Random(7919 * m + seed)
    tokens: set[int] = set()
    while len(tokens) < min(PRETRAIN_TOKENS, 2**m - len(exclude)):
        z = rng.getrandbits(m)
        if z not in exclude:
            tokens.add(z)
    pool = sorted(tokens)
    return [tuple(rng.choice(pool) for _ in range(n)) for _ in range(PRETRAIN_SEQS)]


def curriculum(kind: str, m: int, r: int, seed: int, recipe: models.Recipe, train, test, scored: str) -> models.Model:
    """Stage 1: random tokens, every position scored (for scored="all" the train set is such a
    pool already and is reused); stage 2, from stage 1's parameters: the train set, mixed
    with the stage-1 rows (about MIX pool rows per train row, train rows repeated when
    fewer) so that the pool is not forgotten."""
    own = models.examples(train, m, scored)
    if scored == "all":
        pre = own
    else:
        pre = models.examples(pretrain_sequences(m, len(train[0]), seed, {z for s in test for z in s}), m, "all")
    stage1 = models.Recipe(**{**asdict(recipe), "steps": recipe.pretrain_steps, "lr": recipe.pretrain_lr, "pretrain_steps": 0})
    start = models.train(kind, pre, m, r, seed, stage1)
    stage2 = models.Recipe(**{**asdict(recipe), "pretrain_steps": 0})
    mix = own if scored == "all" else _mixture(pre, own)
    return models.train(kind, mix, m, r, seed, stage2, start=start)


MIX = 8  # stage 2: about MIX pool rows per train row (train rows repeated when fewer)


def _mixture(pool: models.Examples, own: models.Examples) -> models.Examples:
    reps = max(1, round(len(pool.t) / (MIX * len(own.t))))
    parts = [pool] + [own] * reps
    return models.Examples(*(np.concatenate([getattr(x, k) for x in parts]) for k in ("Q", "K", "t", "best", "seq")))


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

# The dense softmax recipes: name -> recipe.  MAIN is the end-to-end recipe (no
# attention supervision): the readout starts at U3's F(q, z) = <q, z> (U = V = I, THEORY §1,
# §2 U3), the scores at random, and training runs first on sequences of random tokens, then
# on the train set (a curriculum).  The others are alternatives and ablations.
from lab.models import MAIN, MAIN_LABEL, SUPERVISED, softmax_label  # noqa: E402  (names shared with experiments_report)


def softmax_recipes(steps: int, batch: int, ablation: bool = True) -> dict[str, models.Recipe]:
    base = dict(steps=steps, lr=0.02, batch=batch, init=0.1)
    out = {MAIN: models.Recipe(**{**base, "lr": 0.005}, att=0.0, readout_init="identity", pretrain_steps=steps, pretrain_lr=0.02, wd=0.05)}
    if ablation:
        out |= {
            "end to end, identity readout": models.Recipe(**base, att=0.0, readout_init="identity"),
            SUPERVISED: models.Recipe(**base, att=1.0),
            "ablation: end to end, random readout": models.Recipe(**base, att=0.0),
        }
    return out




@dataclass
class Plan:
    ranks: list[int]
    seeds: list[int]
    sizes: list[Size]
    kernel_recipe: models.Recipe
    softmax_recipes: dict[str, models.Recipe]
    table_steps: int
    witness: bool = True
    ablation: bool = True
    notes: list[str] = field(default_factory=list)
    code_sizes: list[CodeSize] = field(default_factory=list)
    code_ranks: list[int] | None = None  # kernel ranks of the structured reading (default: ranks)
    code_recipes: list[str] | None = None  # softmax recipes of the structured reading (default: all)

    @property
    def softmax_recipe(self) -> models.Recipe:
        return self.softmax_recipes[MAIN]


def full_plan() -> Plan:
    return Plan(
        ranks=[1, 2, 4, 8, 16, 32, 64, 128],
        seeds=[0, 1, 2],
        sizes=[Size(8, 128, 16384), Size(12, 1024, 16384), Size(16, 4096, 16384)],
        kernel_recipe=models.Recipe(steps=2000, lr=0.05, batch=512, att=1.0, init=0.5, readout_init="identity"),
        softmax_recipes=softmax_recipes(3000, 512),
        table_steps=3000,
        code_sizes=[CodeSize(24, 23, 8), CodeSize(32, 31, 16), CodeSize(64, 59, 64)],
        code_ranks=[2, 8, 32, 128],  # within the shared machine's budget
        code_recipes=[MAIN, "end to end, identity readout"],
    )


def quick_plan() -> Plan:
    return Plan(
        ranks=[2, 32],
        seeds=[0],
        sizes=[Size(6, 16, train_seqs=256, test_seqs=128)],
        kernel_recipe=models.Recipe(steps=200, lr=0.05, batch=256, att=1.0, init=0.5, readout_init="identity"),
        softmax_recipes=softmax_recipes(300, 256, ablation=False),
        table_steps=0,
        ablation=False,
        code_sizes=[CodeSize(12, 11, 3)],
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
            for name, recipe in plan.softmax_recipes.items():
                out.append(("witness_softmax", (s, name, recipe)))
    code_recipes = {k: v for k, v in plan.softmax_recipes.items() if plan.code_recipes is None or k in plan.code_recipes}
    for prefix, sizes, ranks, recipes in (("ood", plan.sizes, plan.ranks, plan.softmax_recipes), ("struct", plan.code_sizes, plan.code_ranks or plan.ranks, code_recipes)):
        for size in sizes:
            for r in ranks:
                for s in plan.seeds:
                    out.append((f"{prefix}_bits", (size, r, s, plan.kernel_recipe, keep)))
            for s in plan.seeds:
                for name, recipe in recipes.items():
                    out.append((f"{prefix}_softmax", (size, s, name, recipe)))
    out.sort(key=lambda j: -_cost(j))  # slowest first keeps both workers busy to the end
    return out


def _cost(job: tuple) -> float:
    """A rough relative cost of a job (for the order only)."""
    kind, args = job
    if kind in ("ood_bits", "struct_bits"):
        return args[1] + args[0].m
    if kind in ("witness_bits", "witness_table"):
        return args[0]
    recipe = args[-1]
    m = 24 if kind == "witness_softmax" else args[0].m
    return m * (2 if recipe.pretrain_steps else 1)


_CACHE: dict = {}
REUSED: list[Result] = []  # rows the last run_all took from --reuse


def _witness():
    if "w" not in _CACHE:
        _CACHE["w"] = witness_inputs()
    return _CACHE["w"]


def _ood(size: Size):
    if size not in _CACHE:
        _CACHE[size] = (*pools(size), *certified_family(size.m, size.n))
    return _CACHE[size]


def _struct(cs: CodeSize):
    if cs not in _CACHE:
        _CACHE[cs] = structured_pools(cs)
    return _CACHE[cs]


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
        s, name, recipe = args
        fam, _ = _witness()
        return run_bits("witness", "softmax", 24, fam, fam, "first", 24, s, recipe, recipe_name=name)
    if kind == "ood_bits":
        size, r, s, recipe, keep = args
        train, test, fam, bound = _ood(size)
        return run_bits(size.name, "kernel", size.m, train, test, "all", r, s, recipe, fam, bound, keep)
    if kind == "ood_softmax":
        size, s, name, recipe = args
        train, test, _, _ = _ood(size)
        return run_bits(size.name, "softmax", size.m, train, test, "all", size.m, s, recipe, recipe_name=name)
    if kind == "struct_bits":  # the test family is certified (bound); the train family too (guard_bound)
        cs, r, s, recipe, keep = args
        train, test, bound, train_bound, _ = _struct(cs)
        return run_bits(cs.name, "kernel", cs.m, train, test, "first", r, s, recipe, train, bound, keep, guard_bound=train_bound)
    if kind == "struct_softmax":
        cs, s, name, recipe = args
        train, test, _, _, _ = _struct(cs)
        return run_bits(cs.name, "softmax", cs.m, train, test, "first", cs.m, s, recipe, recipe_name=name)
    raise ValueError(kind)


def _init_worker() -> None:
    os.environ["OMP_NUM_THREADS"] = "1"


def job_key(job: tuple) -> tuple | None:
    """(setting, model, r, seed, recipe) of the row a job produces (softmax models as "dense
    softmax": the recipe string names them), for --reuse; None for jobs never reused."""
    kind, args = job
    if kind in ("witness_bits", "ood_bits"):
        where, (r, s, recipe) = ("witness", args[:3]) if kind == "witness_bits" else (args[0].name, args[1:4])
        return (where, "kernel (exp features of bits)", r, s, recipe.describe())
    if kind == "witness_table":
        r, s, steps, _ = args
        return ("witness", "kernel (free per-token features)", r, s, f"Adam lr 0.03, {steps} full-batch steps, squared error")
    if kind == "witness_softmax":
        s, _, recipe = args
        return ("witness", "dense softmax", "d=24", s, recipe.describe())
    if kind == "ood_softmax":
        size, s, _, recipe = args
        return (size.name, "dense softmax", f"d={size.m}", s, recipe.describe())
    return None


def row_key(x: Result) -> tuple:
    model = "dense softmax" if x.model.startswith("dense softmax (trained") else x.model
    return (x.setting, model, x.r, x.seed, x.recipe)


def reused(job: tuple, old: dict[tuple, Result]) -> Result | None:
    """The previous run's row for this job (the same setting, model, r, seed and recipe), relabelled."""
    key = job_key(job)
    x = old.get(key) if key is not None else None
    if x is None:
        return None
    if key[1] == "dense softmax":
        name, recipe = job[1][-2], job[1][-1]
        x = Result(**{**asdict(x), "model": softmax_label(name), "recipe_name": name, "attention_supervised": recipe.att > 0})
    return x


def run_all(plan: Plan, keep: Path, workers: int, old: dict[tuple, Result] | None = None) -> list[Result]:
    todo, results = [], []
    for job in jobs(plan, keep):
        x = reused(job, old or {})
        if x is None:
            todo.append(job)
        else:
            results.append(x)
    REUSED[:] = list(results)
    bar = _progress(len(todo))
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
    for cs in plan.code_sizes:
        _, test, _, _, _ = _struct(cs)
        results.append(u3_exact(cs.name, cs.m, cs.n, test, "first"))
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
    hub's answer (kernelbounds.hub.answer)."""
    from kernelbounds.hub.answer import upper

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
        from kernelbounds.lowerbounds.assemble import best

        ub, ub_what = upper_bound(size.m, size.n)
        med = medians(results, size.name)
        soft = [x for x in results if x.setting == size.name and x.model == MAIN_LABEL]
        out[size.name] = {
            "m": size.m, "pool": size.pool, "train_sequences": size.train_seqs, "test_sequences": size.test_seqs,
            "certified_lower_bound": best(size.m, size.n).bound, "upper_bound": ub, "upper_bound_from": ub_what,
            "median_accuracy_by_r": med, "transition": transition(med),
            "median_in_distribution_accuracy_by_r": (ind := medians(results, size.name, key="train_accuracy")),
            "in_distribution_transition": transition(ind),
            "softmax_worst_error_max": max((float(x.worst_error) for x in soft), default=None),
            "softmax_min_accuracy": min((x.accuracy for x in soft), default=None),
        }
    for cs in plan.code_sizes:
        _, _, bound, train_bound, info = _struct(cs)
        med = medians(results, cs.name)
        soft = [x for x in results if x.setting == cs.name and x.model == MAIN_LABEL]
        out[cs.name] = {
            "m": cs.m, "target": cs.target, **info, "certified_lower_bound": bound,
            "median_accuracy_by_r": med, "transition": transition(med),
            "median_in_distribution_accuracy_by_r": (ind := medians(results, cs.name, key="train_accuracy")),
            "in_distribution_transition": transition(ind),
            "softmax_worst_error_max": max((float(x.worst_error) for x in soft), default=None),
            "softmax_min_accuracy": min((x.accuracy for x in soft), default=None),
        }
    if plan.witness:
        soft = [x for x in results if x.setting == "witness" and x.model == MAIN_LABEL]
        out["witness"] = {
            "median_accuracy_by_r_bits": medians(results, "witness"),
            "median_accuracy_by_r_table": medians(results, "witness", "kernel (free"),
            "softmax_worst_error_max": max((float(x.worst_error) for x in soft), default=None),
        }
    return out


# ----- main ------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lab.experiments")
    ap.add_argument("--quick", action="store_true", help="smoke-test size: one small OOD size, two ranks, one seed, no witness suite")
    ap.add_argument("--out", default=None, help="folder for experiments.md/.json/.png (default: docs for a full run, nothing for --quick)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2; 1 runs in this process)")
    ap.add_argument("--render", metavar="JSON", help="only rewrite experiments.md/.png in --out (default docs) from a results file")
    ap.add_argument("--reuse", metavar="JSON", help="take the rows of unchanged jobs (same setting, model, r, seed and recipe) from a previous experiments.json instead of training them again")
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
        old = {row_key(x): x for x in load_results(Path(args.reuse))} if args.reuse else None
        results = run_all(plan, keep, 1 if args.quick else args.workers, old)
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
        write(out, results, summ, plan, wall, cpu, {"rows": len(REUSED), "cpu_seconds": round(sum(x.seconds for x in REUSED))} if REUSED else None)
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


def write(out: Path, results: list[Result], summ: dict, plan: Plan, seconds: float, cpu: float = 0.0, reuse: dict | None = None) -> None:
    from kernelbounds.certificate import write_atomic

    out.mkdir(parents=True, exist_ok=True)
    doc = {
        "generated_by": "scripts/experiments",
        "seconds": round(seconds),
        "cpu_seconds": round(cpu),
        "reused": reuse,
        "plan": {"ranks": plan.ranks, "seeds": plan.seeds, "sizes": [asdict(s) for s in plan.sizes],
                 "code_sizes": [asdict(c) for c in plan.code_sizes], "code_ranks": plan.code_ranks, "code_recipes": plan.code_recipes,
                 "kernel_recipe": asdict(plan.kernel_recipe), "softmax_recipes": {k: asdict(v) for k, v in plan.softmax_recipes.items()}},
        "summary": summ,
        "results": [x.to_json() for x in sorted(results, key=lambda x: (x.setting, x.model, str(x.r).zfill(4), x.seed))],
    }
    write_atomic(out / "experiments.json", json.dumps(doc, indent=1, default=str) + "\n")
    from lab import experiments_report

    write_atomic(out / "experiments.md", experiments_report.markdown(results, summ, plan, table(results), seconds, cpu, reuse))
    experiments_report.plot(results, summ, plan, out / "experiments.png")


def load_results(path: Path) -> list[Result]:
    results = []
    for d in json.loads(path.read_text())["results"]:
        d = dict(d)
        ex = d.pop("worst_error_exact", None)
        if ex is not None:
            d["worst_error"] = Fraction(ex)
        results.append(Result(**d))
    return results


def render(path: Path, out: Path) -> int:
    """Rebuild the markdown and the plot from experiments.json (no training)."""
    from kernelbounds.certificate import write_atomic
    from lab import experiments_report

    doc = json.loads(path.read_text())
    results = load_results(path)
    pl = doc["plan"]
    recipes = {k: models.Recipe(**v) for k, v in pl["softmax_recipes"].items()}
    plan = Plan(pl["ranks"], pl["seeds"], [Size(**s) for s in pl["sizes"]], models.Recipe(**pl["kernel_recipe"]), recipes, 0, witness="witness" in doc["summary"],
                code_sizes=[CodeSize(**c) for c in pl.get("code_sizes", [])], code_ranks=pl.get("code_ranks"), code_recipes=pl.get("code_recipes"))
    out.mkdir(parents=True, exist_ok=True)
    summ = summary(results, plan)
    write_atomic(out / "experiments.md", experiments_report.markdown(results, summ, plan, table(results), doc.get("seconds", 0), doc.get("cpu_seconds", 0), doc.get("reused")))
    experiments_report.plot(results, summ, plan, out / "experiments.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
