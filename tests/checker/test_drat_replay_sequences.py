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
watch list), copies of clauses deleted one at a time, and deleted clauses checked again."""

from hypothesis import given, settings, strategies as st

from kernelbounds.checker import clausal

VARIABLES = 5
LITERALS = [x for v in range(1, VARIABLES + 1) for x in (v, -v)]


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
    db = clausal.Replay(VARIABLES)
    live: list[tuple[int, ...]] = []
    for op, c, pick in steps:
        op, c = _concrete(op, c, pick, live, [])
        if not _step(db, live, op, c, []):
            break  # the empty clause: a proof would end here


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
    db = clausal.Replay(VARIABLES)
    live: list[tuple[int, ...]] = []
    deleted: list[tuple[int, ...]] = []
    for op, c, pick in [("add", c, 0) for c in formula] + steps:
        op, c = _concrete(op, c, pick, live, deleted)
        if not _step(db, live, op, c, deleted):
            break  # the empty clause: a proof would end here


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
