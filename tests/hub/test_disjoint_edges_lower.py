"""The hub's lower side at m = 6..20 from the rank refutations and their extensions by
disjoint edges (THEORY U7, U7+): floor(m/2) + 1, each cited certificate accepted by the
checker (an extension together with the base it names)."""

import subprocess
import sys
from pathlib import Path

import pytest

import kernelbounds as kb
from kernelbounds.checker import check_file

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"


@pytest.mark.parametrize("n", range(3, 9))
def test_lower_is_at_least_floor_m_over_2_plus_one_from_m6_to_m20(n):
    """Where the hub's answer is exactly floor(m/2) + 1 it cites a rank refutation or an
    extension (elsewhere a larger bound applies: codes at m = 19, 20 or at larger n)."""
    variants = ["position-independent", "position-dependent", "causal"] if n <= 5 else ["position-independent"]
    for variant in variants:
        for kernel in ("nonnegative", "signed"):
            for m in range(6, 21):
                b = kb.bound(m, n, variant, kernel=kernel)
                assert b.lower >= m // 2 + 1, (m, n, variant, kernel, b.lower, b.lower_method)
                side = b.sides["lower"]
                if b.lower == m // 2 + 1 and side["theory"] in ("U7", "U7+"):
                    assert side["certificate"], side


def test_at_n3_up_to_m18_the_refutations_and_extensions_give_the_answer():
    for m in range(6, 19):
        for variant in ("position-independent", "position-dependent", "causal"):
            side = kb.bound(m, 3, variant).sides["lower"]
            assert side["value"] == m // 2 + 1 and side["theory"] in ("U7", "U7+") and side["certificate"], (m, variant, side)
            assert side["theory"] == ("U7" if m <= 9 else "U7+")


def test_m8_n3_cites_the_direct_refutation_and_the_checker_accepts_it():
    b = kb.bound(8, 3)
    assert b.lower == 5 and b.sides["lower"]["theory"] == "U7"
    name = b.sides["lower"]["certificate"]
    v = check_file(str(CERTS / Path(name).name))
    assert v.ok and v.claim["value"] == 5


def test_bound_o_writes_an_extension_and_base_out_its_base_and_both_check(tmp_path):
    out, base = tmp_path / "lb.json", tmp_path / "base.json"
    run = subprocess.run([sys.executable, "-m", "kernelbounds", "bound", "--m", "14", "--n", "3", "-o", str(out), "--base-out", str(base)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "8 <=" in run.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.json", "lb.json"]
    check = subprocess.run([sys.executable, "-m", "kernelbounds.checker", str(out), "--base", str(base)], capture_output=True, text=True, cwd=ROOT)
    assert check.returncode == 0 and "feature rank >= 8" in check.stdout, check.stdout
