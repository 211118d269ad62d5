"""The independent checker: accepts true construction claims, rejects every tampering."""

import ast
import copy
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.checker import Code, Limits, check_bytes
from kernelbounds.upperbounds.constructions import CONSTRUCTIONS, certificate

CHECKER = Path(__file__).resolve().parents[2] / "kernelbounds" / "checker"


def test_checker_imports_nothing_from_the_generator():
    for path in CHECKER.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.level > 0 or not (node.module or "").startswith("kernelbounds"), f"{path}: {node.module}"
                if node.level > 0:
                    depth = len(path.relative_to(CHECKER).parts) - 1
                    assert node.level <= depth + 1, f"{path} imports above the checker package"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("kernelbounds") for a in node.names), path


# The trusted base of docs/soundness.md: the checker's own modules, these standard-library
# modules, and python-flint's exact matrix ranks (fmpz_mat, nmod_mat) -- nothing else.
TRUSTED_STDLIB = {"__future__", "argparse", "array", "base64", "binascii", "collections", "contextlib", "ctypes", "dataclasses", "enum", "fractions", "hashlib", "itertools", "json", "math", "operator", "os",
                  "pickle", "re", "resource", "select", "signal", "stat", "sys", "time", "types", "typing"}
TRUSTED_FLINT = {"fmpz_mat", "nmod_mat"}


def test_the_checker_imports_only_its_trusted_base():
    used_flint = set()
    for path in CHECKER.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                top = name.split(".")[0]
                assert top in TRUSTED_STDLIB | {"flint"}, f"{path.name} imports {name}"
            if isinstance(node, ast.ImportFrom) and node.module == "flint":
                used_flint |= {a.name for a in node.names}
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "flint":
                used_flint.add(node.attr)
    assert used_flint <= TRUSTED_FLINT and used_flint, used_flint


@pytest.mark.parametrize("name,m,n", [("tensor", 6, 3), ("softmax", 4, 3), ("rank1", 5, 2), ("tensor", 3, 4)])
def test_valid_certificates_are_accepted(name, m, n):
    v = verdict(certificate(CONSTRUCTIONS[name](m, n)))
    assert v.code == 0, v.render()
    assert any(r.startswith("exhaustive: all") for r in v.routes)
    assert any(r.startswith("FLINT") for r in v.routes)


def _leaves(obj, pointer=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, f"{pointer}/{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, f"{pointer}/{i}")
    else:
        yield pointer, obj


def _set(doc, pointer, value):
    doc = copy.deepcopy(doc)
    *path, last = pointer.strip("/").split("/")
    node = doc
    for key in path:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


def _bump(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        try:
            return str(Fraction(value) + 1).replace(" ", "")
        except ValueError:
            return value + "x"
    return value


def test_every_change_to_the_tensor_certificate_at_m6_is_rejected():
    """kernelbounds construct tensor --m 6 --n 3: no single-number change survives."""
    doc = certificate(CONSTRUCTIONS["tensor"](6, 3))
    for pointer, value in _leaves(doc):
        if pointer != "/construction":
            assert verdict(_set(doc, pointer, _bump(value))).code in (1, 2), pointer


@pytest.mark.parametrize("name,m,n", [("tensor", 6, 3), ("softmax", 3, 3), ("rank1", 4, 2)])
def test_every_single_number_change_is_rejected_and_located(name, m, n):
    doc = certificate(CONSTRUCTIONS[name](m, n))
    changed = 0
    for pointer, value in _leaves(doc):
        if pointer in ("/construction",):  # a free-text label
            continue
        mutant = _set(doc, pointer, _bump(value))
        v = verdict(mutant)
        if v.code == 0:  # allowed only if the mutant is itself a true certificate
            assert mutant == certificate(CONSTRUCTIONS[name](mutant["m"], mutant["n"])), pointer
            continue
        assert v.code in (1, 2), f"{pointer}: {v.render()}"
        assert v.pointer == _expected_pointer(name, pointer), (pointer, v.render())
        changed += 1
    assert changed >= 10


def _expected_pointer(name: str, pointer: str) -> str:
    """Where the checker must say a bumped number goes wrong: the field itself, or the
    first derived fact it breaks (a per-bit factor breaks level-determinedness, except
    g1[1], which only changes c and hence the worst error; a readout coefficient, exp(beta)
    or n changes the worst error; m changes the feature rank 2^m, or the W_Q row length)."""
    if pointer == "/n" or pointer.startswith("/head/readout/") and not pointer.endswith("/type"):
        return "/claims/worst_error"
    if pointer in ("/head/kernel/exp_beta", "/head/kernel/g1/1"):
        return "/claims/worst_error"
    if pointer == "/m":
        return {"tensor": "/claims/feature_rank", "softmax": "/head/kernel/W_Q/0"}[name]
    if pointer.startswith(("/head/kernel/f", "/head/kernel/g", "/head/kernel/W_")):
        return "/head/kernel"
    return pointer


@given(st.sampled_from(["f0", "f1", "g0", "g1"]), st.integers(0, 1), st.fractions(-3, 3, max_denominator=7).filter(lambda x: x != 0))
def test_perturbed_tensor_factor_fails_and_checker_says_where(key, index, delta):
    doc = certificate(CONSTRUCTIONS["tensor"](4, 3))
    old = Fraction(doc["head"]["kernel"][key][index])
    new = old + delta
    tampered = _set(doc, f"/head/kernel/{key}/{index}", f"{new.numerator}/{new.denominator}")
    v = verdict(tampered)
    assert v.code == 1, v.render()
    # only g1[1] keeps <f(a), g(b)> = 1 off (1, 1); it moves c to c + (1 - c) delta
    c = Fraction(doc["head"]["kernel"]["f1"][0])
    keeps_levels = (key, index) == ("g1", 1) and c + (1 - c) * delta >= 0
    assert v.pointer == ("/claims/worst_error" if keeps_levels else "/head/kernel"), v.render()


@given(st.sampled_from(["alpha", "beta", "gamma"]), st.fractions(-2, 2, max_denominator=5).filter(lambda x: x != 0))
def test_perturbed_readout_fails(key, delta):
    doc = certificate(CONSTRUCTIONS["softmax"](3, 3))
    new = Fraction(doc["head"]["readout"][key]) + delta
    v = verdict(_set(doc, f"/head/readout/{key}", f"{new.numerator}/{new.denominator}"))
    assert v.code == 1 and v.pointer == "/claims/worst_error", v.render()


def test_a_true_but_different_claim_is_accepted_only_with_the_right_numbers():
    """Changing c to 1/7 at n = 3 is still a solution; the checker re-derives its error."""
    doc = certificate(CONSTRUCTIONS["tensor"](4, 3))
    doc = _set(doc, "/head/kernel/f1", ["1/7", "6/7"])
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/claims/worst_error"
    assert verdict(_set(doc, "/claims/worst_error", "2/9")).code == 0  # 2c/(1+2c) with c = 1/7


def test_negative_features_rejected_when_claimed_nonnegative():
    """A third feature coordinate with f(1)_3 = -1 and g(0)_3 = g(1)_3 = 0 keeps every
    <f(a), g(b)> (so the kernel, errors and ranks are unchanged) but makes a feature negative:
    the claim nonnegative_features = true is then false and rejected at that entry, while the
    same head claiming signed features is a true certificate."""
    doc = certificate(CONSTRUCTIONS["tensor"](3, 3))
    doc = _set(doc, "/head/kernel", {"type": "tensor-power", "f0": ["1", "0", "0"], "f1": ["1/5", "4/5", "-1"], "g0": ["1", "1", "0"], "g1": ["1", "0", "0"]})
    doc = _set(doc, "/claims/feature_rank", 27)
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/head/kernel/f1/2", v.render()
    assert verdict(_set(doc, "/claims/nonnegative_features", False)).code == 0


@pytest.mark.parametrize(
    "data,code,pointer",
    [
        (b'{"format": "kernelbounds-certificate", "vers', 2, ""),
        (b"[1, 2]", 2, ""),
        (b'{"format": "kernelbounds-certificate", "version": 3, "kind": "construction"}', 2, "/version"),
        (b'{"format": "other", "version": 1, "kind": "construction"}', 2, "/format"),
        (b'{"format": "kernelbounds-certificate", "version": 1, "kind": "magic"}', 2, "/kind"),
        (b'{"format": "kernelbounds-certificate", "format": "x", "version": 1}', 2, ""),
        (b'{"format": "kernelbounds-certificate", "version": NaN, "kind": "construction"}', 2, ""),
        (b"\xff\xfe", 2, ""),
        (b"[" * 100000 + b"]" * 100000, 2, ""),
    ],
)
def test_malformed_input(data, code, pointer):
    v = check_bytes(data)
    assert v.code == code and v.pointer == pointer, v.render()


def test_wrong_types_and_unknown_fields_are_malformed():
    doc = certificate(CONSTRUCTIONS["tensor"](3, 3))
    for pointer, value in [("/m", "3"), ("/n", 3.0), ("/head/kernel/f1/0", 0.2), ("/claims/feature_rank", True), ("/head/kernel/f1", "x")]:
        v = verdict(_set(doc, pointer, value))
        assert v.code == 2 and v.pointer == pointer, v.render()
    extra = copy.deepcopy(doc)
    extra["claims"]["bonus"] = 1
    v = verdict(extra)
    assert v.code == 2 and v.pointer == "/claims/bonus"


def test_resource_limits_refuse_before_work():
    doc = certificate(CONSTRUCTIONS["tensor"](3, 3))
    v = verdict(_set(doc, "/m", 4000))
    assert v.code == 3 and v.pointer == "/m"
    v = verdict(doc, max_file_bytes=100)
    assert v.code == 3


def test_exhaustive_route_runs_within_its_limit_only():
    doc = certificate(CONSTRUCTIONS["tensor"](4, 3))
    assert any(r.startswith("exhaustive: all") for r in verdict(doc).routes)
    assert any(r.startswith("exhaustive: skipped") for r in verdict(doc, exhaustive_inputs=10).routes)


def test_level_class_work_is_bounded_by_the_size_of_the_numbers():
    """A U2 head whose c has 2000-bit numbers: 47,905 classes, but each compares integers of
    about 128,000 bits, so the work estimate refuses the file before any work (exit 3),
    while the same head with c = 1/5 is within the budget."""
    doc = certificate(CONSTRUCTIONS["tensor"](64, 3))
    assert verdict(doc).code == Code.VALID
    c = Fraction(1, 2**2000)
    doc = _set(doc, "/head/kernel/f1", [str(c), str(1 - c)])
    v = verdict(doc)
    assert v.code == Code.LIMIT and "work estimate" in v.reason and v.work > Limits().work_budget
