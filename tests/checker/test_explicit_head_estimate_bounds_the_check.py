"""Rule explicit-head: the work estimate (docs/soundness.md, "Cost model", "Work estimate";
10^7 units a second) is an upper bound on the check's CPU time, on files the default limits
accept.  Two parts of the check are counted below their cost:

* reading the tables: the docstring of ``explicit.work`` counts "reading the tables", but
  ``sizes.read_cost`` of the dict of tables it is given is 0 (it walks lists and strings
  only), so no rational string of phi, psi or a list-layout readout is counted;
* scaling a row with many distinct large denominators to integers (``scale_to_ints``): the
  lcm's gcds and the division of the lcm by each denominator cost about (entries x lcm
  bits x denominator bits), counted as 3-4 linear steps per entry at the lcm's height.

Each file but the valid head claims worst error 100, so every query passes E1 and E2 (every
|y - t| is below 100) and the file is rejected at E3, after the whole pass."""

from __future__ import annotations

import json
import random
import time

import pytest

from kernelbounds.checker import Limits, check_bytes
from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.rules import explicit
from kernelbounds.checker.sizes import read_cost
from kernelbounds.upperbounds.generalheads import pack
from lab import hostile


def _token(i: int, m: int) -> str:
    return format(i, f"0{m}b")[::-1]


def _head(m: int, n: int, phi: list, psi: list, readout: list | dict, nonnegative: bool = True) -> dict:
    """An explicit head claiming worst error 100 (so E1 and E2 pass wherever the kernel is
    nonnegative and every |F| is small, and E3 rejects it)."""
    return {"format": "kernelbounds-certificate", "version": 2, "kind": "explicit-head", "m": m, "n": n, "positions": "all",
            "head": {"phi": phi, "psi": psi, "readout": readout},
            "claims": {"worst_error": "100", "worst_input": {"query": _token(0, m), "others": [_token(0, m)] * (n - 1)},
                       "feature_rank": len(psi[0]), "value_dim": 0, "nonnegative_features": nonnegative}}


def _ones(T: int, r: int = 1) -> list:
    return [["1"] * r for _ in range(T)]


def _distinct(rng: random.Random, count: int, digits: int = 3998) -> list[str]:
    """`count` rationals 1/d with distinct `digits`-digit d (a 4000-character string each)."""
    return [f"1/{rng.randrange(10 ** (digits - 1), 10**digits)}" for _ in range(count)]


def _long_strings_m5() -> dict:
    """m = 5, list readout: every entry p/q with one shared 2000-digit q and a 1990-digit p."""
    rng, T = random.Random(7), 32
    q = rng.randrange(10**1999, 10**2000)
    return _head(5, 5, _ones(T), _ones(T), [[f"{rng.randrange(10**1989, 10**1990)}/{q}" for _ in range(T)] for _ in range(T)])


def _wide_m4() -> dict:
    """m = 4, r = 4095: the kernel 1 plus 2047 pairs of cancelling signed columns; packed readout."""
    T, pairs = 16, 2047
    phi = [["1"] + [str(3 + (q + k) % 5) for k in range(pairs) for _ in (0, 1)] for q in range(T)]
    psi = [["1"] + [s for k in range(pairs) for s in (str(2 + (z * k) % 7), str(-2 - (z * k) % 7))] for z in range(T)]
    return _head(4, 8, phi, psi, pack([(q & z).bit_count() for q in range(T) for z in range(T)], 1), nonnegative=False)


def _list_layout_m9() -> dict:
    """The valid rank-one head of hostile.explicit_rank_one at m = 9 (n = 2), list layout."""
    return hostile.explicit_rank_one(9, 0, value_dim=2**9 - 1)


def _readout_denominators_m3() -> dict:
    """m = 3, list readout: 64 entries 1/d with distinct 3998-digit d."""
    rng = random.Random(2)
    return _head(3, 16, _ones(8), _ones(8), [_distinct(rng, 8) for _ in range(8)])


def _phi_denominators_m3(r: int = 15) -> dict:
    """m = 3: every phi row has r entries 1/d with distinct 3998-digit d."""
    rng = random.Random(3)
    return _head(3, 16, [_distinct(rng, r) for _ in range(8)], _ones(8, r), [["0"] * 8 for _ in range(8)])


def _psi_denominators_m3() -> dict:
    """m = 3: psi holds 8 x 6 entries 1/d with distinct 3998-digit d (one lcm over all 48)."""
    rng = random.Random(4)
    return _head(3, 16, _ones(8, 6), [_distinct(rng, 6) for _ in range(8)], [["0"] * 8 for _ in range(8)])


def _units_and_seconds(doc: dict, limits: Limits | None = None):
    data = json.dumps(doc).encode()
    units = explicit.work(Node(json.loads(data)), Limits())
    start = time.process_time()
    verdict = check_bytes(data, limits=limits, guard=False)
    return units, time.process_time() - start, verdict


def _tables_as_strings(doc: dict) -> list:
    head = doc["head"]
    return [head["phi"], head["psi"]] + ([head["readout"]] if isinstance(head["readout"], list) else [])


@pytest.mark.parametrize("make", [_long_strings_m5, _wide_m4], ids=["long-strings-m5", "wide-m4-r4095"])
def test_the_estimate_counts_reading_the_tables(make):
    """The estimate is at least the model's own units for reading the tables' rational
    strings (``sizes.read_cost``: 40 units + the quadratic str -> int per string)."""
    doc = make()
    reading = sum(read_cost(table) for table in _tables_as_strings(doc))
    assert explicit.work(Node(doc), Limits()) >= reading


@pytest.mark.parametrize("make", [_list_layout_m9, _long_strings_m5, _wide_m4], ids=["valid-list-layout-m9", "long-strings-m5", "wide-m4-r4095"])
def test_the_estimate_bounds_the_cpu_time_of_reading(make):
    """Measured: the valid m = 9 list-layout head 1.09 s estimated, 1.5-1.6 s of CPU (at m = 11,
    18.5 MB: 11.1 s estimated, 21.1 s of CPU, 13.2 s of it reading the readout); long strings
    0.037 s for 0.18 s; wide 0.26 s for 0.53-0.64 s."""
    units, seconds, verdict = _units_and_seconds(make())
    assert verdict.code == 0 if make is _list_layout_m9 else verdict.pointer == "/claims/worst_error", verdict.render()
    assert units / 10**7 >= seconds, (units, seconds)


@pytest.mark.parametrize("make", [_readout_denominators_m3, _phi_denominators_m3, _psi_denominators_m3], ids=["readout", "phi", "psi"])
def test_the_estimate_bounds_the_scaling_of_rows_with_distinct_denominators(make):
    """Measured: readout 0.017 s estimated for 0.23 s of CPU, phi 0.064 s for 0.79 s, psi
    0.11 s for 0.99 s (the lcm's gcds and the divisions d // denominator are not linear in
    the lcm's height: about its height times the denominator's)."""
    units, seconds, verdict = _units_and_seconds(make())
    assert verdict.pointer == "/claims/worst_error", verdict.render()
    assert units / 10**7 >= seconds, (units, seconds)


@pytest.mark.slow  # about 60 s: the runtime guard's time limit
def test_a_file_the_estimate_admits_is_checked_within_the_time_limit():
    """A 6.4 MB file (m = 3, phi rows of 200 distinct 3998-digit denominators) is estimated
    at 9.1 s, so admitted, and its check runs past the 60 s CPU limit (exit 3 from the
    guard, not a refusal before the work)."""
    verdict = check_bytes(json.dumps(_phi_denominators_m3(200)).encode())  # refused at once, or checked in time
    assert "CPU-time budget" not in verdict.reason, verdict.render()
