"""The training of lab/training.py (free per-token features): its gradients, and a small
training run judged exactly by kernelbounds' evaluation."""

from fractions import Fraction

import numpy as np

from lab import training


def test_training_gradients_match_finite_differences():
    inputs = [(0b1100, 0b0011, 0b0110), (0b1100, 0b1000, 0b0001), (0b0011, 0b0110, 0b0110)]
    d = training.make_data(inputs, 4)
    for kind in ("kernel", "softmax"):
        p = training.init(kind, d, 3, np.random.default_rng(1))
        bits = training._bits(d) if kind == "softmax" else None
        _, grads, _ = training.step(kind, p, d, bits)
        for key, g in grads.items():
            idx = tuple(np.unravel_index(np.argmax(np.abs(g)), g.shape))
            old, h = p[key][idx], 1e-6
            p[key][idx] = old + h
            up = training.step(kind, p, d, bits)[0]
            p[key][idx] = old - h
            down = training.step(kind, p, d, bits)[0]
            p[key][idx] = old
            assert abs((up - down) / (2 * h) - g[idx]) < 1e-5 * max(1, abs(g[idx])), (kind, key)


def test_small_training_run_below_the_bound_fails_and_is_judged_exactly(tmp_path):
    """Below the certified bound every trained head fails (the theorem), whatever the float
    training did; at r = 16 float training may or may not solve the family, but the exact
    evaluation must judge it consistently (accuracy 1 iff worst error < 1/2).  Nothing is
    written unless a head falsifies the theorem, and then only into tmp_path."""
    from lab.experiments import run_kernel, witness_inputs

    family, bound = witness_inputs()
    d = training.make_data(family, 24)
    low = run_kernel("witness", d, family, 4, 0, 1500, bound, tmp_path)
    high = run_kernel("witness", d, family, 16, 0, 1500, bound, tmp_path)
    assert bound == 8 and low.worst_error >= Fraction(1, 2) and low.accuracy < 1
    assert (high.accuracy == 1) == (high.worst_error < Fraction(1, 2)) and high.rank <= 16
    assert list(tmp_path.iterdir()) == []
