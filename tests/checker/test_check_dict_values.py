"""kb.check on a parsed document holding values JSON cannot: a code-2 verdict naming the
field by its JSON pointer, never an exception from the serializer."""

from __future__ import annotations

import copy
import json
import os
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

import kernelbounds as kb

VALID = os.path.join(os.path.dirname(__file__), "..", "corpus", "correct", "crossing-m5-n3.json")
with open(VALID) as _fh:
    DOC = json.load(_fh)


def _put(doc: dict, path: list, value) -> dict:
    out = copy.deepcopy(doc)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@pytest.mark.parametrize("value,why", [
    (float("nan"), "nan"), (float("inf"), "inf"), (Fraction(1, 3), "Fraction"), ({1, 2}, "set"), (object(), "object"), (b"1", "bytes"), (1j, "complex"),
])
@pytest.mark.parametrize("path,pointer", [(["m"], "/m"), (["claims", "a/b~c"], "/claims/a~1b~0c")])
def test_non_json_value_is_code_2_at_its_pointer(value, why, path, pointer):
    verdict = kb.check(_put(DOC, path, value))
    assert verdict.code == 2 and not verdict.ok
    assert verdict.pointer == pointer and why in verdict.reason


@pytest.mark.parametrize("key", [1, 2.5, None, True, (1, 2)])
def test_non_string_key_is_code_2(key):
    doc = copy.deepcopy(DOC)
    doc["claims"][key] = "x"
    verdict = kb.check(doc)
    assert verdict.code == 2 and verdict.pointer == "/claims" and "not a string" in verdict.reason


def test_cycles_and_depth_are_code_2():
    doc = copy.deepcopy(DOC)
    doc["self"] = doc
    assert kb.check(doc).code == 2
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert kb.check({**DOC, "x": deep}).code == 2


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.floats(allow_nan=False, allow_infinity=False), lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3), max_leaves=10))
def test_json_values_reach_the_checker(value):
    """Any JSON value in an unknown field reaches the checker, which names that field."""
    verdict = kb.check({**DOC, "extra": value})
    assert verdict.code == 2 and verdict.pointer in ("", "/extra") and "extra" in verdict.reason + verdict.pointer


def test_the_valid_document_still_checks():
    assert kb.check(copy.deepcopy(DOC)).ok
