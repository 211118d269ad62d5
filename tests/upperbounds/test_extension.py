"""Level families above m = 64 (THEORY §2 U4', "Above m = 64"): the explicit chain's faster
reach bound, extensions of a base by the explicit rule, the stored signed answers."""

import json
from fractions import Fraction
from math import comb, log2
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from kernelbounds.upperbounds import chain, extension, complementbasis, replay

ROOT = Path(__file__).resolve().parents[2]


def reach_bound_by_definition(k: int, n: int) -> int:
    """U(k) as chain's module doc defines it: the first X > k with (n - 2)(d - 1) C(X - d, k)
    >= C(X, k) for some 2 <= d <= X - k, less 1 (every d tried)."""
    X = k + 1
    while not any((n - 2) * (d - 1) * comb(X - d, k) >= comb(X, k) for d in range(2, X - k + 1)):
        X += 1
    return X - 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 70), st.integers(3, 8))
def test_reach_bound_scan_stops_only_where_the_definition_agrees(k, n):
    assert chain.reach_bound(k, n) == reach_bound_by_definition(k, n)


def kernel_values(g: dict, upto: int) -> list:
    return [sum(v * comb(x, j) for j, v in g.items()) for x in range(upto + 1)]


def class_rows_hold(g: dict, m: int, n: int) -> bool:
    """Every extreme class (X, u), X <= m, written from THEORY U4': H(x) > 0 and
    g_0 (X - 1) - H(X) + (n - 2) H(u) (X - u - 1) < 0 (u < X)."""
    h = kernel_values(g, m)
    return min(h) > 0 and all(h[0] * (X - 1) - h[X] + (n - 2) * h[u] * (X - u - 1) < 0 for X in range(1, m + 1) for u in range(X))


def test_extending_the_unit_base_is_the_explicit_chain():
    for m, n in [(20, 3), (64, 3), (100, 5), (128, 8)]:
        r0 = complementbasis.reach({0: 1}, n, 0, limit=m)
        added, g, c, _ = chain.least_extension({0: 1}, r0, m, n)
        found = chain.explicit(m, n)
        assert (0, *added) == found.support and 1 + c == found.rank


def test_an_extension_follows_the_rule_and_holds_at_m():
    """The committed m = 64 signed family at n = 8 reaches 73 < 100: its extension to m = 100
    adds elements g_j = 16 H(j - 1), each at most one past the reach before it, and every
    extreme class up to 100 then holds (checked here from THEORY, and by the checker)."""
    base = complementbasis.integral(replay.stored(64, 8).g)
    reach = complementbasis.reach(base, 8, 0, limit=100)
    assert 64 <= reach < 100
    added, g, c, _ = chain.least_extension(base, reach, 100, 8)
    assert added and c == sum(comb(100, j) for j in added)
    grown = dict(base)
    for j in added:
        assert j <= complementbasis.reach(grown, 8, 0, limit=100) + 1 and j > max(grown)
        grown[j] = 16 * kernel_values(grown, j - 1)[j - 1]
    assert grown == g and class_rows_hold(g, 100, 8)
    v = complementbasis.verdict(g, 100, 8)
    doc = complementbasis.certificate({j: Fraction(x) for j, x in g.items()}, v.eps, v.worst, 100, 8)
    assert check_bytes(canonical_json(doc).encode(), "extension").ok


def test_the_committed_m64_signed_family_reaches_m200_at_n3():
    """THEORY U4': the m = 64 signed family at n = 3 works at least up to m = 200, so its rank
    at m = 65 is about 2.49e11 (not 2^65)."""
    g = complementbasis.integral(replay.stored(64, 3).g)
    assert class_rows_hold(g, 200, 3)
    assert round(sum(comb(65, j) for j in g) / 1e9) == 249


def test_the_grid_leaves_no_gap_above_64():
    assert {65, 96, 128, 192, 256} <= set(extension.GRID) and extension.GRID == sorted(extension.GRID)
    assert all(b - a <= 8 for a, b in zip([64] + extension.GRID[:-1], extension.GRID, strict=True))
    assert set(range(72, 257, 8)) <= set(extension.GRID)


def test_every_stored_signed_answer_replays_and_beats_the_chain():
    answers = replay._read(extension.DATA, extension.FORMAT)
    assert answers and set(answers) <= set(extension.CELLS)
    for (m, n), e in sorted(answers.items()):
        found = extension.stored(m, n)
        assert found.rank == e["rank"] == sum(comb(m, j) for j in e["support"]) < chain.explicit(m, n).rank
        assert set(e["extension"]) <= set(e["support"]) and not found.nonnegative


def test_the_answers_at_n3_meet_theory_up_to_m128():
    """THEORY U4' "Above m = 64" (measured independently): 2^57.2 at m = 96 and 2^77.0 at 128
    (signed), the chain 2^87.7 at 128 with support (0, 1, 6, 25, 106) and 2^178.4 at 256. The
    committed signed answers are at least as good up to m = 128; above, where the float LP on
    [0..J] stalls for J = 27..31 and 33..39 (its reach stays at 158, then 198), they are
    worse than THEORY's 2^111.7 at 192 and 2^151.6 at 256 but far below the chain."""
    for m, bits in [(96, 57.2), (128, 77.0)]:
        assert log2(extension.construction(m, 3, False).rank) <= bits
    for m in (192, 256):
        assert log2(extension.construction(m, 3, False).rank) < log2(chain.explicit(m, 3).rank) - 10
    assert chain.explicit(128, 3).support == (0, 1, 6, 25, 106)
    assert round(log2(chain.explicit(256, 3).rank), 1) == 178.4


def test_committed_files_above_64_are_the_catalog_cells():
    names = {p.name for p in (ROOT / "certificates").glob("upper-*-m*-n*.json")}
    signed = set(extension.signed_cells())
    for m, n in extension.CELLS:
        assert f"upper-nonnegative-m{m:02d}-n{n}.json" in names
        assert (f"upper-any-m{m:02d}-n{n}.json" in names) == ((m, n) in signed)
    doc = json.loads((ROOT / "certificates" / "upper-any-m128-n3.json").read_text())
    assert doc["claims"]["feature_rank"] <= 2**80
