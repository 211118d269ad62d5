"""The DRAT replay (checker/clausal.py, class Replay) against naive unit propagation over
random sequences of additions, deletions and RUP checks on a few variables.

The oracle keeps the live clauses as a plain list and recomputes unit propagation from
scratch by repeated full passes.  After every step the replay's persistent top level (its
trail) must be exactly the oracle's propagation of the live clauses, a RUP check must
agree with the oracle's, and a deletion the replay ignores must be one the format lets it
ignore (an unknown clause, a unit, or a clause with a true literal: possibly the reason of
a top-level assignment).  A sequence ends at the first conflict (the empty clause).

The second test draws sequences in which the watch lists matter: a formula of 3-literal clauses over
few variables (every literal watched by several clauses), then mostly lemmas that are RUP by
construction (resolvents: the conflict comes after a watch has moved, in the middle of a
watch list), copies of clauses deleted one at a time, and deleted clauses checked again.

Two more tests build, for every example, the situation a wrong replay gets wrong, then go on
with random steps: a RUP check whose propagation stops at a conflict in the middle of a
watch list (after a watch has moved, before clauses not visited yet), then top-level units
that need exactly the watches that check left; and copies of one clause (literals in
different orders) deleted one at a time, then the clause checked again.

Every example runs under a time bound (`time_bound`): a replay that loops, or whose watch
lists grow without end, fails that example within seconds instead of hanging the suite
(hypothesis's `deadline` only measures an example after it returns)."""

import contextlib
import signal
import threading

import pytest
from hypothesis import given, settings, strategies as st

from kernelbounds.checker import clausal

VARIABLES = 5
LITERALS = [x for v in range(1, VARIABLES + 1) for x in (v, -v)]


EXAMPLE_SECONDS = 5  # one example takes milliseconds; a replay still running after this is hung


class Hang(BaseException):
    """An example over its time bound.  Not an Exception: hypothesis does not shrink it (every
    shrinking attempt could run as long), the test fails at once with the example named."""


@contextlib.contextmanager
def time_bound(seconds: float, example: object):
    """Fail the enclosed block with Hang after `seconds` of wall time (SIGALRM, so only in the
    main thread, where pytest and its xdist workers run the tests; elsewhere, unbounded)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise Hang(f"an example ran over {seconds} s (a replay that does not terminate): {example!r}"[:4000])

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _propagate(clauses: list[tuple[int, ...]], assumed: tuple[int, ...] = ()) -> set[int] | None:
    """The literals unit propagation makes true from the negated `assumed` literals, or
    None on a conflict."""
    true = {-x for x in assumed}
    if any(-x in true for x in true):
        return None
    changed = True
    while changed:
        changed = False
        for c in clauses:
            if any(x in true for x in c):
                continue
            free = [x for x in c if -x not in true]
            if not free:
                return None
            if len(free) == 1:
                true.add(free[0])
                changed = True
    return true


def _trail(db: clausal.Replay) -> set[int]:
    return set(db.trail)


# proper clauses (distinct variables, each literal of either sign), the empty one included
clause = st.lists(st.sampled_from(LITERALS), max_size=3, unique_by=abs).map(tuple)
three = st.lists(st.sampled_from(LITERALS), min_size=3, max_size=3, unique_by=abs).map(tuple)


# "add-implied" adds (-x, y) for a literal x true at the top level, so that y is propagated
# with that clause as its reason; "delete-satisfied" deletes a live clause with a true
# literal (every reason is one: the replay must ignore the deletion of a reason)
OPS = ("add", "add-implied", "lemma", "delete-live", "delete-satisfied", "delete-any")
step = st.tuples(st.sampled_from(OPS), clause, st.integers(0, 63))


@settings(max_examples=200, deadline=None)
@given(st.lists(step, min_size=1, max_size=20))
def test_replay_agrees_with_naive_propagation_on_random_sequences(steps):
    """Each step: an operation, a clause (the one added, checked or deleted; an empty clause
    stands for a unit where the operation needs one) and a pick among the live clauses."""
    with time_bound(EXAMPLE_SECONDS, steps):
        _run(clausal.Replay(VARIABLES), [], [], steps)


# The second test's operations, besides those above: # "add-copy" adds a live clause again (copies of one clause, deleted one at a time);
# "lemma-resolvent" checks the resolvent of two live clauses on a clashing variable (RUP by
# construction, through two propagation steps), "lemma-shortened" a live clause less one
# literal (RUP or not), "lemma-deleted" a clause deleted earlier (RUP only if the clauses
# left imply it).  Lemma operations are listed more than once: drawn more often.
OPS_WATCHED = ("add", "add-implied", "add-copy", "delete-live", "delete-satisfied", "delete-any",
       "lemma", "lemma-resolvent", "lemma-resolvent", "lemma-resolvent", "lemma-shortened", "lemma-shortened", "lemma-deleted", "lemma-deleted")
step_watched = st.tuples(st.sampled_from(OPS_WATCHED), clause, st.integers(0, 63))


def _resolvents(live: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The proper resolvents of two live clauses, in a fixed order."""
    out = []
    for d in live:
        for e in live:
            for x in d:
                if -x in e:
                    r = tuple(sorted(set(d) - {x} | set(e) - {-x}))
                    if clausal.proper(r) and r not in out:
                        out.append(r)
    return out


def _concrete(op: str, c: tuple[int, ...], pick: int, live: list[tuple[int, ...]], deleted: list[tuple[int, ...]]) -> tuple[str, tuple[int, ...]]:
    """The drawn step as one of "add", "lemma", "delete-live", "delete-any" and its clause."""
    if op == "add-implied":
        top = sorted(_propagate(live) or ())
        others = [y for y in LITERALS if top and abs(y) != abs(top[pick % len(top)])]
        op, c = ("add", (-top[pick % len(top)], others[(pick // 7) % len(others)])) if top else ("add", c)
    if op == "delete-satisfied":
        top = _propagate(live) or set()
        satisfied = [d for d in live if len(d) >= 2 and any(x in top for x in d)]
        op, c = ("delete-any", satisfied[pick % len(satisfied)]) if satisfied else ("add", c)
    if op == "add-copy":
        op, c = "add", (live[pick % len(live)] if live else c)
    if op == "lemma-resolvent":
        resolvents = _resolvents(live)
        op, c = "lemma", (resolvents[pick % len(resolvents)] if resolvents else c)
    if op == "lemma-shortened":
        longer = [d for d in live if len(d) >= 2]
        if longer:
            d = longer[pick % len(longer)]
            c = tuple(x for k, x in enumerate(d) if k != (pick // 7) % len(d))
        op = "lemma"
    if op == "lemma-deleted":
        op, c = "lemma", (deleted[pick % len(deleted)] if deleted else c)
    if op == "delete-live" and not live:
        op = "add"
    if op != "lemma" and not c:
        c = (1 + pick % VARIABLES,)
    if op == "delete-live":
        c = live[pick % len(live)]
    return op, c


@settings(max_examples=200, deadline=None)
@given(st.lists(three, min_size=6, max_size=12), st.lists(step_watched, min_size=1, max_size=30))
def test_replay_agrees_with_naive_propagation_after_a_formula_of_three_literal_clauses(formula, steps):
    """A formula of 3-literal clauses, then steps: an operation, a clause (the one added,
    checked or deleted; an empty clause stands for a unit where the operation needs one) and
    a pick among the live or deleted clauses.

    Guards the watch lists: a propagation that stops at a conflict must keep the watches of
    the clauses it has not visited yet and must not leave a watch on a literal a visited
    clause no longer watches (a stale watch makes a later visit take the clause for a unit:
    a lemma accepted that is not RUP, or a top-level literal no clause implies); a deletion
    removes exactly one live copy; a RUP check undoes its assignments and its propagation
    position."""
    with time_bound(EXAMPLE_SECONDS, (formula, steps)):
        _run(clausal.Replay(VARIABLES), [], [], [("add", c, 0) for c in formula] + steps)


def _run(db: clausal.Replay, live: list, deleted: list, steps: list[tuple[str, tuple[int, ...], int]]) -> bool:
    """Apply the steps (operations as _concrete takes them) to the replay and to the naive
    model (`live`, `deleted`), comparing them after each step; False at the empty clause."""
    for op, c, pick in steps:
        op, c = _concrete(op, c, pick, live, deleted)
        if not _step(db, live, op, c, deleted):
            return False  # the empty clause: a proof would end here
    return True


def _step(db, live: list, op: str, c: tuple, deleted: list) -> bool:
    """Apply one operation to the replay and to the naive model, and compare them: the
    conflict flag, and the top-level trail with naive unit propagation.  False once the
    formula is refuted (the empty clause: a proof would end there)."""
    if op == "add":  # a clause of the formula
        db.add(c)
        live.append(c)
    elif op == "lemma":  # a lemma: added only when it is RUP, as refute() does
        expected = _propagate(live, c) is None
        assert db.rup(c) == expected, (live, c)
        if not expected:
            return True
        db.add(c)
        live.append(c)
    else:
        ignored = db.ignored
        db.delete(c)
        key = sorted(c)
        copies = [i for i, d in enumerate(live) if sorted(d) == key]
        if db.ignored > ignored:  # ignored: an unknown clause, a unit, or a possible reason
            top = _propagate(live)
            assert not copies or len(c) == 1 or (top is not None and any(x in top for x in c)), (live, c)
        else:
            assert copies and len(c) >= 2, (live, c)
            del live[copies[-1]]
            deleted.append(c)
    top = _propagate(live)
    assert db.conflict == (top is None), live
    if top is None:
        return False
    assert _trail(db) == top, (live, sorted(db.trail), sorted(top))
    return True


# ------------------------------------------------ designed situations, then random steps

WIDE = 20  # the variables of the designed situations: each role its own, renamed at random


@st.composite
def renamings(draw):
    """A renaming of the literals: a permutation of the variables 1..WIDE and a sign each."""
    image = draw(st.permutations(range(1, WIDE + 1)))
    signs = draw(st.lists(st.sampled_from((1, -1)), min_size=WIDE, max_size=WIDE))
    return lambda x: (1 if x > 0 else -1) * signs[abs(x) - 1] * image[abs(x) - 1]


@st.composite
def watched_by(draw, lit: int, rest: tuple[int, ...]) -> tuple[int, ...]:
    """A clause of `lit` and `rest` in a drawn order in which `lit` is among the first two
    literals: the two a clause added with no literal false is watched by."""
    order = list(draw(st.permutations(rest)))
    order.insert(draw(st.integers(0, 1)), lit)
    return tuple(order)


@st.composite
def conflict_mid_watch_list(draw):
    """Steps in which a RUP check stops at a conflict in the middle of the watch list of L,
    after at least one watch has moved, before the clauses not visited yet; then two
    top-level units that need those clauses' watches on L.

    The formula: clauses (L, u, w) with u, w fresh (their watch moves from L to w in the
    check), some of them "kept" (the lemma makes u true: the clause keeps its watch on L or
    moves it to u), in a drawn order; then X = (L, a, b); then tails (L, c, d).  The lemma
    is (L, a, b, -u of the kept clauses), L first: its check falsifies L first and meets X
    after the moves, a conflict with the tails unvisited.  Then the units -d (of one tail)
    and -L: the top level propagates c by that tail, through its watch on L only.  A replay
    that drops the unvisited watches at a conflict misses c; one that leaves the visited
    part of the list as it was (moved watches and a second watch of X) takes X, on -L, for
    a unit and sets a, which no clause implies."""
    moves, keeps, tails = draw(st.integers(1, 3)), draw(st.integers(0, 2)), draw(st.integers(1, 3))
    L, a, b = 1, 2, 3
    fresh = iter(range(4, WIDE + 1))
    before = []
    kept = []
    for k in range(moves + keeps):
        u, w = next(fresh), next(fresh)
        before.append(draw(watched_by(L, (u, w))))
        if k >= moves:
            kept.append(u)
    before = draw(st.permutations(before))
    x = draw(watched_by(L, (a, b)))
    tail = [draw(watched_by(L, (next(fresh), next(fresh)))) for _ in range(tails)]
    lemma = (L, *draw(st.permutations([a, b] + [-u for u in kept])))
    d = draw(st.sampled_from([y for y in draw(st.sampled_from(tail)) if y != L]))  # either: c stays watched
    steps = [("add", c, 0) for c in [*before, x, *tail]] + [("lemma", lemma, 0), ("add", (-d,), 0), ("add", (-L,), 0)]
    rename = draw(renamings())
    return [(op, tuple(map(rename, c)), pick) for op, c, pick in steps]


@st.composite
def copies_deleted_one_at_a_time(draw):
    """Steps adding copies of C = (p, q, r) (2 to 4, each in a drawn literal order) among up
    to 4 clauses over other variables, deleting the copies one at a time (each deletion in
    a drawn order, some after a check that propagates through the copies left), then
    checking C again and adding the units -p, -q.  No top-level literal is set before the
    deletions, so the replay honours each: C is then gone, and it is not implied (the other
    clauses share no variable with it and, fewer than 8 of 3 literals, are satisfiable), so
    its check fails and -p, -q propagate nothing.  A replay whose deletions take one copy
    off its list of live copies but mark another deleted keeps a copy live."""
    p, q, r = 1, 2, 3
    copies = draw(st.integers(2, 4))
    others = draw(st.lists(st.lists(st.sampled_from([x for v in range(4, 9) for x in (v, -v)]), min_size=3, max_size=3, unique_by=abs).map(tuple),
                           max_size=4))
    added = draw(st.permutations([draw(st.permutations((p, q, r))) for _ in range(copies)] + others))
    steps = [("add", tuple(c), 0) for c in added]
    for _ in range(copies):
        if draw(st.booleans()):
            steps.append(("lemma", tuple(draw(st.permutations((p, q, r))))[:2], 0))  # not RUP: -p, -q propagate r
        steps.append(("delete-any", tuple(draw(st.permutations((p, q, r)))), 0))
    steps += [("lemma", tuple(draw(st.permutations((p, q, r)))), 0), ("add", (-p,), 0), ("add", (-q,), 0)]
    rename = draw(renamings())
    return [(op, tuple(map(rename, c)), pick) for op, c, pick in steps]


@settings(max_examples=100, deadline=None)
@given(conflict_mid_watch_list(), st.lists(step_watched, max_size=10))
def test_replay_keeps_the_watches_a_conflict_leaves_unvisited(designed, steps):
    """A RUP check that stops at a conflict in the middle of a watch list leaves the watches
    of the clauses it has not visited, and none on a literal a clause no longer watches: the
    top level it propagates afterwards is the naive one (then random steps)."""
    with time_bound(EXAMPLE_SECONDS, (designed, steps)):
        db, live, deleted = clausal.Replay(WIDE), [], []
        assert _run(db, live, deleted, designed)
        # the situation is the designed one: the check was RUP (its lemma added), and the
        # units -d, -L propagate exactly one literal, the tail's c
        assert designed[-3][1] in live and len(_propagate(live) or ()) == 3, live
        _run(db, live, deleted, steps)


@settings(max_examples=100, deadline=None)
@given(copies_deleted_one_at_a_time(), st.lists(step_watched, max_size=10))
def test_replay_deletes_copies_of_a_clause_one_at_a_time(designed, steps):
    """Deleting every copy of a clause one at a time leaves no copy live: the clause is
    checked again, and its literals set false, as the naive model of the clauses left says
    (then random steps)."""
    with time_bound(EXAMPLE_SECONDS, (designed, steps)):
        db, live, deleted = clausal.Replay(WIDE), [], []
        assert _run(db, live, deleted, designed)
        # the situation is the designed one: no copy of C left, C not RUP (not added again),
        # and the units -p, -q propagate nothing
        c = sorted(designed[-3][1])
        assert not any(sorted(d) == c for d in live) and _propagate(live) == {designed[-2][1][0], designed[-1][1][0]}, live
        _run(db, live, deleted, steps)


def test_time_bound_ends_a_loop_that_does_not_terminate():
    """The bound turns an endless loop into a failure naming the example, and is off again
    afterwards (the alarm disarmed, the previous handler back)."""
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(Hang, match="'the example'"), time_bound(0.2, "the example"):
        while True:
            pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and signal.getsignal(signal.SIGALRM) is before
