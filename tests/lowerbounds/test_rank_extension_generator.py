"""The generator side of THEORY U7+: the direct m = 8, r = 4 refutation replayed from the store
and the rank-extension entries of the committed set."""

import json
from pathlib import Path

from helpers import verdict

from kernelbounds.bits import from_str
from kernelbounds.lowerbounds import rankextension, refutation

ROOT = Path(__file__).resolve().parents[2]


def test_the_m8_seed_is_the_m6_core_padded_plus_the_edge_67():
    core = refutation.stored(6, 3)["queries"]
    seed = refutation.seed_queries(8, 4)
    assert sorted(seed) == sorted([from_str(q + "00") for q in core] + [0b11000000])
    assert refutation.stored(8, 4)["queries"] == [format(q, "08b")[::-1] for q in sorted(seed)]


def test_the_direct_m8_refutation_is_valid_well_inside_the_default_budget():
    doc = refutation.refute(8, 3, 4, "causal").certificate()
    v = verdict(doc)
    assert v.ok, v.render()
    assert v.claim["value"] == 5 and v.claim["m"] == 8
    assert doc["claims"]["variables"] == 210 and doc["claims"]["clauses"] == 51391  # THEORY U7+ (measured independently)
    assert v.work * 10 < 600_000_000


def test_the_committed_cells_and_an_entry_built_from_a_base():
    cells = set(rankextension.CELLS)
    for m in range(10, 21, 2):
        assert {(m, 3, "position-dependent"), (m, 3, "causal")} <= cells
    assert all(m % 2 == 0 and 8 <= m <= 20 for m, _, _ in cells)
    name, build = rankextension.entry(14, 5, "causal", "refutation-causal-m06-n5-r3.json", lambda: refutation.refute(6, 5, 3, "causal").certificate())
    doc = build()
    assert name == "extension-causal-m14-n5-r7.json"
    assert doc["claims"]["bound"] == 14 // 2 + 1 and doc["m"] == 14 and doc["edges"] == [[6, 7], [8, 9], [10, 11], [12, 13]]


def test_an_extension_names_its_base_by_the_sha256_of_the_committed_bytes():
    import hashlib

    base_name = "refutation-position-dependent-m06-n4-r3.json"
    doc = json.loads((ROOT / "certificates" / "extension-position-dependent-m10-n4-r5.json").read_text())
    assert doc["base"] == {"name": base_name, "sha256": hashlib.sha256((ROOT / "certificates" / base_name).read_bytes()).hexdigest()}
