"""Cells beyond the stored grid (n > 8, or m > 64) are computed in worker processes by
``table``; what a worker returns must cross the process boundary whole: the answer, and the
generator call that rebuilds each side's certificate."""

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.hub import answer

STORED = st.tuples(st.integers(1, 64), st.integers(1, 8))
BEYOND = st.one_of(st.tuples(st.integers(1, 7), st.integers(9, 12)), st.tuples(st.integers(65, 72), st.integers(3, 4)))


def _sides(a: answer.Answer) -> tuple:
    return (a.lower, a.upper, a.upper_nonnegative)


def _documents(a: answer.Answer) -> list[str | None]:
    return [None if s._build is None else canonical_json(s.certificate_document()) for s in _sides(a)]


@settings(max_examples=20, deadline=None)
@given(st.one_of(STORED, BEYOND), st.sampled_from(["position-independent", "position-independent", "position-dependent"]))
def test_a_computed_answer_pickles_with_its_rebuilds(cell, variant):
    """The answer and each side's rebuild call survive pickling: the same JSON, and the same
    call (pickled again, the same bytes: the same function and the same arguments)."""
    m, n = cell
    a = answer.bounds(m, n, variant)
    b = pickle.loads(pickle.dumps(a))
    assert b.to_json() == a.to_json()
    assert [pickle.dumps(s._build) for s in _sides(b)] == [pickle.dumps(s._build) for s in _sides(a)]


@settings(max_examples=8, deadline=None)
@given(BEYOND, st.sampled_from(["position-independent", "position-dependent"]))
def test_an_unpickled_rebuild_writes_the_same_certificate(cell, variant):
    """Beyond the stored grid (where a worker computes the cell) the unpickled call rebuilds
    each side's certificate byte for byte."""
    a = answer.bounds(*cell, variant)
    assert _documents(pickle.loads(pickle.dumps(a))) == _documents(a)


def test_a_table_of_computed_cells_is_the_same_in_two_processes_as_in_one():
    ms, ns = [2, 3, 5], [9, 10]
    answer.forget()
    alone = [a.to_json() for a in answer.table(ms, ns, jobs=1)]
    answer.forget()
    pooled = [a.to_json() for a in answer.table(ms, ns, jobs=2)]
    assert pooled == alone
    assert [(a["m"], a["n"]) for a in pooled] == [(m, n) for m in ms for n in ns]
