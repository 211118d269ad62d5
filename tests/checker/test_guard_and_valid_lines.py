"""The runtime guard behind the work estimate, estimates that see the numbers'
heights, VALID lines that state only checked facts, bounded file-derived text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import types
from fractions import Fraction
from pathlib import Path

import flint
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, check_bytes, check_file, rules
from kernelbounds.checker import budget
from kernelbounds.checker.rules import modrank
from lab import fuzz, hostile

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
CORPUS = ROOT / "tests" / "corpus"


def _fake_kind(monkeypatch, name: str, body) -> bytes:
    """Register a kind whose estimate is 1 and whose check runs `body` (a future kind
    with a wrong estimate): the guard must hold without code of its own."""
    module = types.SimpleNamespace(work=lambda doc, limits: 1, check=lambda doc, limits: body())
    monkeypatch.setitem(rules.REGISTRY, name, module)
    monkeypatch.setitem(budget.ESTIMATES, name, module)
    return json.dumps({"format": "kernelbounds-certificate", "version": 2, "kind": name}).encode()


def _spin():
    while True:
        pass


def test_the_guard_stops_a_runaway_check_of_any_kind_at_the_time_limit(monkeypatch):
    v = check_bytes(_fake_kind(monkeypatch, "spin", _spin), limits=Limits(time_limit=1))
    assert v.code == 3 and "time_limit = 1 s" in v.reason and "\n" not in v.line()


def test_the_guard_stops_a_check_that_allocates_past_the_memory_limit(monkeypatch):
    v = check_bytes(_fake_kind(monkeypatch, "hog", lambda: bytearray(2**30)), limits=Limits(memory_limit=100 * 2**20))
    assert v.code == 3 and "memory_limit = 100 MiB" in v.reason


def test_flint_out_of_memory_inside_c_is_a_resource_limit(monkeypatch):
    big = lambda: flint.fmpz_mat(600, 600, [3**4000 + i for i in range(360000)]).rank()  # noqa: E731
    v = check_bytes(_fake_kind(monkeypatch, "flinthog", big), limits=Limits(memory_limit=150 * 2**20))
    assert v.code == 3 and "memory_limit" in v.reason


def test_a_crashing_check_is_an_internal_error_on_one_line(monkeypatch):
    v = check_bytes(_fake_kind(monkeypatch, "crash", lambda: os.kill(os.getpid(), 11)), limits=Limits())
    assert v.code == 4 and "signal 11" in v.reason and "\n" not in v.line()


def test_both_front_ends_take_the_guard_options():
    path = str(CORPUS / "limits" / "guard-time-limit.json")
    for cmd in ([sys.executable, "-m", "kernelbounds.checker"], [sys.executable, "-m", "kernelbounds", "check"]):
        out = subprocess.run([*cmd, "--time-limit", "1", path], capture_output=True, text=True)
        assert out.returncode == 3 and out.stdout.count("\n") == 1 and "time_limit = 1 s" in out.stdout and not out.stderr
        out = subprocess.run([*cmd, "--memory-limit", "40M", str(CORPUS / "limits" / "guard-memory-limit.json")], capture_output=True, text=True)
        assert out.returncode == 3 and "memory_limit = 40 MiB" in out.stdout
        out = subprocess.run([*cmd, "--memory-limit", "lots", path], capture_output=True, text=True)
        assert out.returncode == 2 and "--memory-limit" in out.stderr


def test_the_api_check_runs_under_the_guard():
    from kernelbounds.api import check

    v = check(str(CORPUS / "limits" / "guard-time-limit.json"), Limits(time_limit=1))
    assert v.code == 3 and "time_limit" in v.reason


# ----------------------------------------------------------------- estimates see heights


def test_explicit_head_estimate_sees_the_readout_denominators():
    small, big = (hostile.explicit_rank_one(5, digits) for digits in (0, 25))
    from kernelbounds.checker.jsonread import Node

    work = [rules.explicit.work(Node(d), Limits()) for d in (small, big)]
    assert work[1] > 5 * work[0]
    assert check_bytes(canonical_json(big).encode(), guard=False).code == 0  # valid, and within the budget
    v = check_bytes(canonical_json(hostile.explicit_rank_one(8, 25)).encode(), guard=False)
    assert v.code == 3 and v.pointer == "" and "work estimate" in v.reason  # a 4 MB file: refused at once


def _wide_explicit_head(m: int, pairs: int) -> dict:
    """The valid rank-one head of hostile.explicit_rank_one(m) (n = 2, so the exhaustive
    route runs up to m = 10) in the packed layout, with `pairs` pairs of feature columns
    that cancel (phi = c, c and psi = b, -b): the same kernel, r = 1 + 2 pairs full-size
    products per pair (q, z)."""
    from kernelbounds.upperbounds.generalheads import pack

    doc = hostile.explicit_rank_one(m, 0, value_dim=m)  # F(q, z) = 2<q, z> - |q|: dv = m
    head, T = doc["head"], 2**m
    head["readout"] = pack([int(x) for row in head["readout"] for x in row], 1)
    head["phi"] = [["1"] + [str(3 + (q + k) % 5) for k in range(pairs) for _ in (0, 1)] for q in range(T)]
    head["psi"] = [["1"] + [s for k in range(pairs) for s in (str(2 + (z * k) % 7), str(-2 - (z * k) % 7))] for z in range(T)]
    doc["claims"].update(feature_rank=1 + 2 * pairs, nonnegative_features=False)
    return doc


def test_explicit_head_estimate_counts_every_pass_over_the_kernel():
    """The weights are rebuilt per query by E1, E2 and the exhaustive route (never stored):
    the estimate >= the measured CPU time (10^7 units a second) on a head whose kernel
    products dominate; it counted one pass (6 s of CPU estimated 3.7 s at m = 6, r = 4097)."""
    from kernelbounds.checker.jsonread import Node

    data = canonical_json(_wide_explicit_head(6, 1000)).encode()
    units = rules.explicit.work(Node(json.loads(data)), Limits())
    start = time.process_time()
    verdict = check_bytes(data, guard=False)
    seconds = time.process_time() - start
    assert verdict.code == 0, verdict.render()
    assert units / 10**7 >= seconds, (units, seconds)
    assert units / 10**7 <= 40 * seconds + 0.5, (units, seconds)


def test_motzkin_sums_use_one_common_denominator():
    base = json.loads((CERTS / "upper-any-m08-n4.json").read_text())
    v = check_bytes(canonical_json(hostile.motzkin_bomb(base)).encode(), guard=False)
    assert v.code == 3 and "work estimate" in v.reason
    scaled = json.loads(json.dumps(base))  # every y of a refutation times 1/3^200: the same proof
    for item in scaled["minimality"]["refuted"][0]["multipliers"]:
        item["y"] = str(Fraction(item["y"]) / 3**200)
    assert check_bytes(canonical_json(scaled).encode(), guard=False).code == 0


def test_u2_at_m64_n6_is_committed_and_fits_the_budget():
    doc = json.loads((CERTS / "construction-tensor-m64-n6.json").read_text())
    from kernelbounds.checker.jsonread import Node

    assert doc["n"] == 6 and rules.construction_work.work(Node(doc), Limits()) <= Limits().work_budget


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 12), st.integers(0, 4), st.integers(1, 200), st.randoms(use_true_random=True))
def test_exact_rank_by_primes_equals_flint(size, rank, bits, rng):
    # a real random.Random seeded by the example (use_true_random=True): up to 12 x 14 entries of
    # 200 bits drawn lazily from hypothesis' own buffer overran it on about one example in five
    rows = size + rng.randrange(3)
    a = [[rng.getrandbits(bits) - 2 ** (bits - 1) for _ in range(rank)] for _ in range(rows)]
    b = [[rng.getrandbits(bits) for _ in range(size)] for _ in range(rank)]
    m = [[sum(a[i][k] * b[k][j] for k in range(rank)) for j in range(size)] for i in range(rows)]
    assert modrank.exact_rank(m)[0] == flint.fmpz_mat(m).rank()


# ----------------------------------------------------------------- only checked facts


def _claim_mutants(doc):
    """(pointer, mutant): every number or boolean under /claims (and the free readout's
    value_dim) set to another value."""
    for path, value in fuzz.leaves(doc):
        if not (path[:1] == ("claims",) or path[-2:] == ("readout", "value_dim")):
            continue
        if isinstance(value, bool):
            options = [not value]
        elif isinstance(value, int):
            options = [value + 1, max(value - 1, 0)]
        elif isinstance(value, str) and value.lstrip("-").replace("/", "").isdigit():
            options = [str(Fraction(value) + Fraction(1, 7))]
        else:
            continue
        for option in options:
            if option != value:
                yield path, fuzz._set(json.loads(json.dumps(doc)), path, option)


def _seeds():
    """Every kind's seed; the m = 9 explicit head (a 2.5 MB table), whose value dimension
    is not recomputed, has its own test above."""
    out = fuzz.seeds()
    out.append(json.loads((CERTS / "explicit-head-m04-n3-r2.json").read_text()))
    out.append(json.loads((CERTS / "rank-one-infeasible-m04-n3.json").read_text()))
    return out


def test_every_number_in_a_valid_line_is_rederived():
    """Changing a claimed number either gets the file rejected or leaves the VALID line
    unchanged: no number in a verdict is copied from the file."""
    for doc in _seeds():
        line = check_bytes(canonical_json(doc).encode(), "f", guard=False)
        assert line.ok, line.render()
        mutants = list(_claim_mutants(doc))
        assert mutants, doc["kind"]
        for path, mutant in mutants:
            v = check_bytes(canonical_json(mutant).encode(), "f", guard=False)
            assert not v.ok or v.line() == line.line(), f"{doc['kind']} {path}: {v.line()[:300]}"


def test_explicit_head_above_m8_does_not_state_its_value_dimension():
    """Above m = 8 the value dimension is not recomputed, so it is not in the VALID line:
    a changed claim leaves the line unchanged (or is rejected)."""
    doc = hostile.explicit_rank_one(9, 0, value_dim=0)
    v = check_bytes(canonical_json(doc).encode(), guard=False)
    assert v.ok and "value dimension" not in v.summary and any("not stated" in r for r in v.routes)
    doc["claims"]["value_dim"] = 1
    mutant = check_bytes(canonical_json(doc).encode(), guard=False)
    assert not mutant.ok or mutant.line() == v.line(), mutant.line()[:300]


def test_rank_one_infeasible_states_its_scope():
    v = check_file(str(CERTS / "rank-one-infeasible-m04-n3.json"))
    assert v.ok and "position-independent" in v.summary and "nonnegative kernel" in v.summary


def test_every_printed_file_derived_string_is_bounded():
    orbit = next(d for d in fuzz.seeds() if "symmetry" in d)
    orbit["code"]["name"] = "x" * 300_000 + "\nVALID forged"
    v = check_bytes(canonical_json(orbit).encode(), guard=False)
    assert v.ok and len(v.render()) < 30_000 and v.render().count("\nVALID") == 0
    for r in v.routes:
        assert "300000 characters" in r or len(r) < 5000
