"""The guard of tests/conftest.py: property tests reach their assertions."""

import ast
import pathlib

TESTS = pathlib.Path(__file__).parent


def _given_functions():
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and getattr(d.func, "id", getattr(d.func, "attr", "")) == "given" for d in node.decorator_list
            ):
                yield path.name, node


def _own_returns(fn: ast.FunctionDef):
    """`return` statements of fn itself (not of functions nested in it)."""
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def test_property_tests_have_no_early_return():
    """An early return would count as reaching the assertions; use `assume` instead."""
    found = list(_given_functions())
    assert len(found) >= 20
    bad = [f"{name}:{ret.lineno} {fn.name}" for name, fn in found for ret in _own_returns(fn)]
    assert bad == []


GUARDED = '''
from hypothesis import assume, given, settings, strategies as st

@settings(max_examples=50, derandomize=True, database=None)
@given(st.integers(0, 9))
def test_filters_half(x):
    assume(x < 5)
    assert x < 5

@settings(max_examples=50, derandomize=True, database=None)
@given(st.integers(0, 99))
def test_filters_little(x):
    assume(x != 0)
    assert x > 0
'''


def test_the_guard_fails_a_test_that_filters_most_examples(pytester):
    pytester.makeconftest((TESTS / "conftest.py").read_text().replace('pytest_plugins = ["pytester"]\n', ""))
    pytester.makepyfile(test_guarded=GUARDED)
    result = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_filters_half*", "*reached the assertions (need 80%)*"])
