"""Bit-feature heads, their exact re-evaluation, the falsification guard and the quick
experiment run."""

import itertools
import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.heads.evaluate import evaluate, kernel_rank as table_rank
from kernelbounds.heads.tables import load
from lab import exact, experiments, models

ROOT = Path(__file__).resolve().parents[2]


def all_inputs(m, n=3):
    return list(itertools.product(range(2**m), repeat=n))


def random_model(kind, m, r, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    model = models.init(kind, m, r, models.Recipe(init=scale), rng)
    for k in model.p:
        model.p[k] = model.p[k] + rng.normal(0, scale, model.p[k].shape)
    return model


def u2_exp_model(m, beta=40.0):
    """U2 in the complement basis (THEORY §2 U4) with exp features: feature T (a subset of
    the bits) has phi_Q = 4^|T| exp(beta(sum_T q_i - |T|)) ~ 4^|T| [T in q] and
    phi_K = exp(-beta sum_T z_i) ~ [T and z disjoint], so a(q, z) ~ 5^(|q| - <q,z>)."""
    subsets = [[i for i in range(m) if s >> i & 1] for s in range(2**m)]
    WQ, WK = np.zeros((2**m, m)), np.zeros((2**m, m))
    bQ = np.zeros(2**m)
    for k, T in enumerate(subsets):
        WQ[k, T], WK[k, T] = beta, -beta
        bQ[k] = len(T) * (math.log(4) - beta)
    model = models.init("kernel", m, 2**m, models.Recipe(readout_init="identity"), np.random.default_rng(0))
    model.p |= {"WQ": WQ, "bQ": bQ, "WK": WK, "bK": np.zeros(2**m), "U": np.eye(m), "V": np.eye(m)}
    return model


@pytest.mark.parametrize("kind", ["kernel", "kernel-softplus", "softmax"])
def test_gradients_match_finite_differences(kind):
    rng = random.Random(0)
    ex = models.examples([tuple(rng.randrange(64) for _ in range(3)) for _ in range(20)], 6)
    model = random_model(kind, 6, 4, 1, 0.4)
    _, grads, _, _ = models.forward(model, ex, att=0.7)
    for key, g in grads.items():
        idx = tuple(np.unravel_index(np.argmax(np.abs(g)), g.shape))
        old, h = model.p[key][idx], 1e-6
        model.p[key][idx] = old + h
        up = models.forward(model, ex, 0.7, False)[0]
        model.p[key][idx] = old - h
        down = models.forward(model, ex, 0.7, False)[0]
        model.p[key][idx] = old
        assert abs((up - down) / (2 * h) - g[idx]) < 1e-5 * max(1, abs(g[idx])), key


@settings(max_examples=25, deadline=None)
@given(m=st.integers(2, 5), r=st.integers(1, 6), seed=st.integers(0, 10**6), scale=st.sampled_from([0.3, 1.0, 3.0]))
def test_exact_kernel_evaluation_is_kernelbounds_evaluate_and_agrees_with_floats(m, r, seed, scale):
    """The integer evaluation decides exactly what kernelbounds.heads.evaluate decides on the same
    head (as a TableHead), and the float model's errors are within 1e-9 of the exact ones."""
    rng = random.Random(seed)
    seqs = sorted({tuple(rng.randrange(2**m) for _ in range(3)) for _ in range(30)})
    model = random_model("kernel", m, r, seed, scale)
    tokens = sorted({z for s in seqs for z in s})
    mine = exact.evaluate_kernel(model, seqs, "all")
    ref = evaluate(exact.table_head(model, tokens), seqs, None)
    assert mine.worst_error == ref.worst_error and mine.failures == ref.failures and ref.negative_weights == 0
    floats = models.float_errors(model, models.examples(seqs, m, "all"))
    assert abs(float(mine.worst_error) - floats.max()) < 1e-9 * max(1.0, floats.max())


@settings(max_examples=25, deadline=None)
@given(m=st.integers(2, 5), r=st.integers(1, 9), copies=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_kernel_rank_is_the_rank_of_the_full_kernel_matrix(m, r, copies, seed):
    """Repeated feature rows make the rank deficient (the exact fallback); FLINT on the
    whole kernel matrix decides."""
    model = random_model("kernel", m, r * copies, seed)
    for key in ("WQ", "bQ", "WK", "bK"):
        model.p[key] = np.concatenate([model.p[key][:r]] * copies)
    tokens = list(range(2**m))
    assert exact.kernel_rank(model, tokens) == table_rank(exact.table_head(model, tokens), tokens)


def test_exp_features_express_u2_and_the_guard_fires_on_a_planted_contradiction(tmp_path):
    """The U2 kernel, built from exp features of the bits, solves every input at m = 3
    (worst error ~ 2/7, THEORY §2 U2) with exact rank 8; a planted bound of 9 must stop."""
    m = 3
    model = u2_exp_model(m)
    seqs = all_inputs(m)
    res = exact.evaluate_kernel(model, seqs, "all")
    assert res.failures == 0 and abs(float(res.worst_error) - 2 / 7) < 1e-9
    assert exact.kernel_rank(model, list(range(2**m))) == 8
    experiments.guard_bits("planted", model, seqs, 8, tmp_path)  # r = 8 >= bound: nothing to say
    with pytest.raises(experiments.Falsified, match="rank-8 head solves"):
        experiments.guard_bits("planted", model, seqs, 9, tmp_path)
    kept = list(tmp_path.glob("FALSIFYING-head-*.json"))
    assert len(kept) == 1
    again = evaluate(load(kept[0].read_text()), seqs, 0)
    assert again.failures == 0 and again.kernel_rank == 8


def test_arb_softmax_evaluation_of_the_u3_parameters():
    """Dense softmax with W_Q = -ln 5 I, W_K = I (U3) and F = <q, z>: the arb balls put every
    output within 1/2, the worst error within 1e-12 of U3's exact 2/7, with tiny radii."""
    m = 3
    model = models.init("softmax", m, m, models.Recipe(), np.random.default_rng(0))
    model.p |= {"WQ": -math.log(5) * np.eye(m), "WK": np.eye(m), "log_tau": np.zeros(1), "U": np.eye(m), "V": np.eye(m)}
    for k in ("u0", "v0", "c", "c0"):
        model.p[k][:] = 0
    res = exact.evaluate_softmax(model, all_inputs(m), "all")
    assert res.failures == 0 and abs(res.worst_error - 2 / 7) < 1e-12 and res.error_bound < 1e-60


@settings(max_examples=10, deadline=None)
@given(m=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_arb_softmax_evaluation_agrees_with_floats(m, seed):
    rng = random.Random(seed)
    seqs = [tuple(rng.randrange(2**m) for _ in range(3)) for _ in range(20)]
    model = random_model("softmax", m, m, seed)
    res = exact.evaluate_softmax(model, seqs, "all")
    floats = models.float_errors(model, models.examples(seqs, m, "all"))
    assert abs(res.worst_error - floats.max()) < 1e-9 * max(1.0, floats.max())
    assert res.failures == int((floats >= 0.5).sum())  # no float error sits within 1e-9 of 1/2 here


def test_pools_are_disjoint_and_targets_are_min_ip():
    size = experiments.Size(8, 40, 50, 30)
    train, test = experiments.pools(size)
    assert not {z for s in train for z in s} & {z for s in test for z in s}
    ex = models.examples(test, 8, "all")
    k, i = 7, 2
    row = i * len(test) + k
    assert ex.t[row] == min((test[k][i] & z).bit_count() for z in test[k])


def test_quick_run_writes_consistent_results(tmp_path):
    """The smoke run of scripts/experiments: every trained head is re-evaluated exactly,
    the exact and float worst errors agree, ranks never exceed r, U3 is exact."""
    assert experiments.main(["--quick", "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "experiments.json").read_text())
    rows = doc["results"]
    trained = [x for x in rows if x["float_worst_error"] is not None]
    assert trained and all(abs(x["worst_error"] - x["float_worst_error"]) < 1e-6 * max(1, x["float_worst_error"]) for x in trained)
    assert all(x["rank"] <= x["r"] for x in rows if x["model"].startswith("kernel"))
    assert all(Fraction(x["worst_error_exact"]) < Fraction(1, 2) for x in rows if "U3" in x["model"])
    text = (tmp_path / "experiments.md").read_text()
    assert text.count("against the paper") == 1 and (tmp_path / "experiments.png").stat().st_size > 0
    again = tmp_path / "again"
    assert experiments.main(["--render", str(tmp_path / "experiments.json"), "--out", str(again)]) == 0
    assert (again / "experiments.md").read_text() == text  # the report is a function of the json


# ----- end-to-end dense softmax recipe, structured OOD reading -------------------


def test_bit_matrix_and_targets_beyond_63_bits():
    """m = 64 tokens (the structured reading's largest size) do not fit int64: bits and
    Min-IP targets still come out right."""
    rng = random.Random(3)
    seqs = [tuple(rng.getrandbits(64) | (1 << 63) for _ in range(3)) for _ in range(5)]
    bits = models.bit_matrix([z for s in seqs for z in s], 64)
    assert all(bits[k, i] == ((z >> i) & 1) for k, z in enumerate(z for s in seqs for z in s) for i in range(64))
    ex = models.examples(seqs, 64, "all")
    assert all(ex.t[i * len(seqs) + k] == min((seqs[k][i] & z).bit_count() for z in seqs[k]) for k in range(5) for i in range(3))


def test_negdef_start_is_u3s_score_direction():
    """score_init="negdef" with no noise starts at W_Q^T W_K = -I (THEORY §2 U3's direction)."""
    model = models.init("softmax", 5, 5, models.Recipe(init=0.0, score_init="negdef", tau0=2.0), np.random.default_rng(0))
    assert np.array_equal(model.p["WQ"].T @ model.p["WK"], -np.eye(5)) and math.isclose(math.exp(model.p["log_tau"][0]), 2.0)


def test_structured_pools_use_disjoint_code_words_and_certified_bounds():
    """The test words are the shortest Paley prefix certifying the target; the train words are
    the others (disjoint); at m = 24, target 8 the test family is the witness suite itself."""
    from kernelbounds.lowerbounds.assemble import assemble, smallest_witness
    from kernelbounds.lowerbounds.witness import witness_family
    from kernelbounds.lowerbounds.codes.paley import paley

    train, test, bound, train_bound, info = experiments.structured_pools(experiments.CodeSize(24, 23, 8))
    assert test == witness_family(smallest_witness(24, 3, 8)) and bound == 8 and info["test_words"] == 10
    code = paley(23, 24)
    assert assemble(code.prefix(9), 3).bound < 8 <= assemble(code.prefix(10), 3).bound
    queries = lambda fam: {s[0] for s in fam}  # noqa: E731  the queries are the complements of the rows' code words
    full = (1 << 24) - 1
    assert {full ^ q for q in queries(test)} == set(code.words[:10]) and {full ^ q for q in queries(train)} == set(code.words[10:])
    assert train_bound == assemble(type(code)("rest", 24, code.words[10:]), 3).bound == info["train_bound"] >= bound


def test_main_softmax_recipe_is_exact_on_unseen_code_words_without_attention_supervision():
    """The end-to-end recipe (identity readout, random-token curriculum, no attention loss),
    short: trained on the witness family of 19 Paley(11) words, its dense softmax solves the
    witness family of the 3 other words (certified r >= 3) exactly (arb balls); the same
    steps with a random readout and no curriculum do not (seeded)."""
    cs = experiments.CodeSize(12, 11, 3)
    train, test, bound, _, _ = experiments.structured_pools(cs)
    main = experiments.softmax_recipes(300, 256)[experiments.MAIN]
    assert main.att == 0 and main.pretrain_steps == 300
    model = experiments.curriculum("softmax", 12, 12, 0, main, train, test, "first")
    res = exact.evaluate_softmax(model, test, "first")
    assert res.failures == 0 and res.worst_error < 0.2 and res.error_bound < 1e-60
    plain = models.train("softmax", models.examples(train, 12, "first"), 12, 12, 0, models.Recipe(steps=300, batch=256, att=0.0))
    assert exact.evaluate_softmax(plain, test, "first").failures > 0


def test_pretrain_sequences_avoid_the_test_tokens():
    exclude = set(range(0, 256, 3))
    seqs = experiments.pretrain_sequences(8, 3, 0, exclude)
    tokens = {z for s in seqs for z in s}
    assert not tokens & exclude and len(tokens) == 256 - len(exclude) and len(seqs) == experiments.PRETRAIN_SEQS


@pytest.mark.slow
def test_experiments_quick_with_out_writes_its_files(tmp_path):
    r = subprocess.run([sys.executable, "-m", "lab.experiments", "--quick", "--out", str(tmp_path)], capture_output=True, cwd=ROOT)
    assert r.returncode == 0 and (tmp_path / "experiments.md").exists() and (tmp_path / "experiments.png").exists()
