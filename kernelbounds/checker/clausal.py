"""Replay a clausal proof: DRAT restricted to RUP steps (docs/certificate-format-v2.md,
kind `rank-refutation`, rule RR5).

A proof is a list of steps, each a DIMACS-style line: ``l1 l2 ... 0`` adds a lemma,
``d l1 l2 ... 0`` deletes a clause.  A lemma C is accepted iff it has the *reverse unit
propagation* property: assigning every literal of C false and unit-propagating over the
current clauses (the formula, the accepted lemmas, minus the honoured deletions) yields a
conflict.  Then C is implied by the formula, so every accepted lemma is; the formula is
proved unsatisfiable exactly when the empty clause is accepted (the top level propagates to
a conflict).  RAT steps are not supported: a lemma that is not RUP is rejected.

Deletions only remove clauses, so honouring or ignoring one never makes an unsound lemma
pass.  A deletion removes one copy of an identical active clause (the same set of literals);
it is **ignored** (and counted) when no such clause is active, and when the clause is the
reason of a top-level assignment (as drat-trim ignores unit deletions): the top-level trail
stays valid.

Propagation uses two watched literals per clause of length >= 2; the top-level assignment
(units and their consequences) is kept between lemmas and extended when a new lemma becomes
unit.  The worst case of one RUP check is sum over live clauses of |C|^2 literal visits
(each clause is visited at most once per watched literal that becomes false, and a visit
scans the clause once); ``replay_work`` bounds the whole replay by that, from the sizes
alone, before anything is checked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .errors import Invalid, Malformed
from .jsonread import Node

MAX_LINE_CHARS = 100_000
TOKEN = re.compile(r"d|-?(?:0|[1-9][0-9]*)")  # the only words of a proof line (ASCII; docs/certificate-format-v2.md)
# TOKENs separated by runs of spaces (the line stripped of its outer spaces first): each
# separator is followed by a word, never by a space, so the match is one linear pass
LINE = re.compile(r"(?:(?:d|-?(?:0|[1-9][0-9]*))(?: +(?:d|-?(?:0|[1-9][0-9]*)))*)?")


def split_step(step: Node) -> tuple[str, list[str]]:
    """One proof line and its words: at most MAX_LINE_CHARS characters, words separated by
    ASCII spaces, each the letter d or an ASCII decimal integer without sign '+', leading
    zeros or '_' (so every line has one reading)."""
    text = step.str()
    if len(text) > MAX_LINE_CHARS:
        raise step.fail(f"a proof line of {len(text)} characters, over {MAX_LINE_CHARS}")
    if LINE.fullmatch(text.strip(" ")):
        return text, text.split()  # only ASCII spaces separate the words here
    bad = next((w for w in text.split(" ") if w and not TOKEN.fullmatch(w)), text)  # only to name it
    raise step.fail(f"a proof line's words are ASCII decimal integers or 'd' separated by spaces, got {bad[:20]!r}")


def proper(lits: list[int] | tuple[int, ...]) -> bool:
    """No literal repeated and no literal with its negation: a set, so linear in the line
    (a list's `in` made it quadratic: 26 ms for a line of 1,716 literals)."""
    seen = set(lits)
    return len(seen) == len(lits) and not any(-x in seen for x in seen)


def parse_steps(node: Node, variables: int, max_steps: int) -> list[tuple[bool, tuple[int, ...]]]:
    """The steps as (is_deletion, literals); every literal names a variable 1..variables."""
    out = []
    for step in node.list(max_steps):
        text, words = split_step(step)
        delete = bool(words) and words[0] == "d"
        if delete:
            words = words[1:]
        if not words or words[-1] != "0":
            raise step.fail("a proof line must end with the literal 0")
        try:
            lits = [int(w) for w in words[:-1]]
        except ValueError:
            raise step.fail(f"expected integer literals, got {text[:40]!r}") from None
        for lit in lits:
            if lit == 0 or abs(lit) > variables:
                raise step.fail(f"literal {lit} names no variable of the formula (1..{variables})")
        if not proper(lits):
            raise step.fail("a clause repeats a literal or contains a literal and its negation")
        out.append((delete, tuple(lits)))
    return out


LINE_UNITS = 100  # per proof line: reading the JSON string, the one-pass match, the list and tuple (6-8 us measured)
CLAUSE_UNITS = 80  # per formula clause inserted into the replay's database (sort, lists, watches: 3-9 us measured)


class Replay:
    """Unit propagation over a growing clause database with a persistent top level."""

    def __init__(self, variables: int):
        self.value = [0] * (variables + 1)  # +1 true, -1 false, 0 unassigned (per variable)
        self.reason = [-1] * (variables + 1)  # the clause that set a top-level variable
        self.clauses: list[list[int] | None] = []
        self.watches: dict[int, list[int]] = {}
        self.by_key: dict[tuple[int, ...], list[int]] = {}
        self.trail: list[int] = []
        self.head = 0
        self.conflict = False  # the top level propagates to a conflict: the empty clause
        self.ignored = 0

    def true(self, lit: int) -> bool:
        return self.value[abs(lit)] == (1 if lit > 0 else -1)

    def false(self, lit: int) -> bool:
        return self.value[abs(lit)] == (-1 if lit > 0 else 1)

    def assign(self, lit: int, cid: int) -> None:
        self.value[abs(lit)] = 1 if lit > 0 else -1
        self.reason[abs(lit)] = cid
        self.trail.append(lit)

    def propagate(self) -> bool:
        """Propagate the trail from `head`; False on a conflict."""
        value, clauses, watches, trail = self.value, self.clauses, self.watches, self.trail
        while self.head < len(trail):
            lit = -trail[self.head]  # this literal just became false
            self.head += 1
            ws = watches.get(lit)
            if not ws:
                continue
            i = j = 0
            while i < len(ws):
                cid = ws[i]
                i += 1
                c = clauses[cid]
                if c is None:
                    continue  # deleted: drop the watch
                if c[0] == lit:
                    c[0], c[1] = c[1], lit
                other = c[0]
                if value[abs(other)] == (1 if other > 0 else -1):
                    ws[j] = cid
                    j += 1
                    continue
                for k in range(2, len(c)):
                    x = c[k]
                    if value[abs(x)] != (-1 if x > 0 else 1):
                        c[1], c[k] = x, lit
                        watches.setdefault(x, []).append(cid)
                        break
                else:
                    ws[j] = cid
                    j += 1
                    if value[abs(other)] != 0:  # false: a conflict
                        ws[j:] = ws[i:]  # keep the unvisited watches
                        return False
                    value[abs(other)] = 1 if other > 0 else -1
                    self.reason[abs(other)] = cid
                    trail.append(other)
            del ws[j:]
        return True

    def add(self, lits: tuple[int, ...]) -> None:
        """Insert a clause (of the formula, or an accepted lemma) and keep the top level
        propagated."""
        if self.conflict:
            return
        c = sorted(lits, key=lambda x: self.false(x))  # non-false literals first
        cid = len(self.clauses)
        self.clauses.append(c if len(c) >= 2 else None)
        if len(c) >= 2:  # a unit is never live (its deletion is ignored): by_key lists only live clauses
            self.by_key.setdefault(tuple(sorted(lits)), []).append(cid)
        if not c or self.false(c[0]):
            self.conflict = True
            return
        if len(c) >= 2:
            self.watches.setdefault(c[0], []).append(cid)
            self.watches.setdefault(c[1], []).append(cid)
        if (len(c) == 1 or self.false(c[1])) and not self.true(c[0]):
            self.assign(c[0], cid)
            if not self.propagate():
                self.conflict = True

    def delete(self, lits: tuple[int, ...]) -> None:
        """Constant work per literal: the live copies of a clause are the list by_key holds
        (units never enter it), the last copy is the one removed."""
        ids = self.by_key.get(tuple(sorted(lits)))
        if not ids:
            self.ignored += 1  # unknown, already deleted, or a unit: ignored
            return
        cid = ids[-1]
        if any(self.reason[abs(x)] == cid and self.true(x) for x in lits):
            self.ignored += 1  # the reason of a top-level assignment: ignored
            return
        self.clauses[cid] = None
        ids.pop()

    def rup(self, lits: tuple[int, ...]) -> bool:
        """Does assigning every literal of the lemma false propagate to a conflict?"""
        if self.conflict:
            return True
        mark = len(self.trail)
        ok = False
        for x in lits:
            if self.true(x):
                ok = True
                break
            if not self.false(x):
                self.assign(-x, -1)
        if not ok:
            ok = not self.propagate()
        for x in self.trail[mark:]:
            self.value[abs(x)] = 0
            self.reason[abs(x)] = -1
        del self.trail[mark:]
        self.head = mark
        return ok


def refute(variables: int, clauses: list[tuple[int, ...]], steps: Sequence[tuple[bool, tuple[int, ...]]], pointer: str) -> dict:
    """Replay the steps over the clauses; return counts when the empty clause is accepted,
    raise Invalid (naming the step) for a lemma that is not RUP or a proof without the
    empty clause.  Steps after the empty clause are malformed."""
    db = Replay(variables)
    for c in clauses:
        db.add(c)
    lemmas = deletions = 0
    for i, (delete, lits) in enumerate(steps):
        if delete:
            deletions += 1
            db.delete(lits)
            continue
        if not db.rup(lits):
            raise Invalid(f"{pointer}/{i}", f"lemma {i} ({' '.join(map(str, lits))} 0) is not RUP: unit propagation from its negation over the current clauses gives no conflict")
        lemmas += 1
        if not lits:
            if i + 1 != len(steps):
                raise Malformed(f"{pointer}/{i + 1}", "steps after the empty clause")
            return {"lemmas": lemmas, "deletions": deletions, "ignored": db.ignored}
        db.add(lits)
    raise Invalid(pointer, f"the proof ends after {len(steps)} steps ({lemmas} lemmas accepted) without the empty clause: unsatisfiability is not proved")


# ----------------------------------------------------------------- LRAT (hints: linear time)


def parse_lrat(node: Node, variables: int, max_steps: int) -> list[tuple[int, bool, tuple[int, ...], tuple[int, ...]]]:
    """LRAT lines ``id l1 .. lk 0 h1 .. hj 0`` (add, with unit-propagation hints) and
    ``id d c1 .. cj 0`` (delete clause ids) as (id, is_deletion, literals, ids)."""
    out: list[tuple[int, bool, tuple[int, ...], tuple[int, ...]]] = []
    for step in node.list(max_steps):
        text, words = split_step(step)
        try:
            ident = int(words[0])
            delete = len(words) > 1 and words[1] == "d"
            nums = [int(w) for w in words[2 if delete else 1:]]
        except (ValueError, IndexError):
            raise step.fail(f"expected an LRAT line 'id lits 0 hints 0' or 'id d ids 0', got {text[:40]!r}") from None
        if delete:
            if not nums or nums[-1] != 0 or 0 in nums[:-1]:
                raise step.fail("a deletion line must be 'id d ids 0'")
            out.append((ident, True, (), tuple(nums[:-1])))
            continue
        if nums.count(0) != 2 or nums[-1] != 0:
            raise step.fail("an addition line must be 'id lits 0 hints 0'")
        cut = nums.index(0)
        lits, hints = tuple(nums[:cut]), tuple(nums[cut + 1:-1])
        for lit in lits:
            if abs(lit) > variables:
                raise step.fail(f"literal {lit} names no variable of the formula (1..{variables})")
        if not proper(lits):
            raise step.fail("a clause repeats a literal or contains a literal and its negation")
        if any(h < 0 for h in hints):
            raise step.fail("a negative hint is a RAT step; only RUP steps are supported")
        out.append((ident, False, lits, hints))
    return out


def check_lrat(clauses: list[tuple[int, ...]], steps: Sequence[tuple[int, bool, tuple[int, ...], tuple[int, ...]]], pointer: str) -> dict:
    """Check every addition by its hints (each hint clause must be unit under the negated
    lemma and the units so far, the last one falsified); accept when the empty clause is
    added.  Formula clause i (0-based, canonical order) has id i + 1; an added clause's id
    must exceed every id so far; deleting an unknown id is ignored (counted)."""
    db: dict[int, tuple[int, ...]] = {i + 1: c for i, c in enumerate(clauses)}
    top = len(clauses)
    lemmas = deletions = ignored = 0
    for i, (ident, delete, lits, ids) in enumerate(steps):
        where = f"{pointer}/{i}"
        if delete:
            deletions += 1
            for c in ids:
                if db.pop(c, None) is None:
                    ignored += 1
            continue
        if ident <= top:
            raise Invalid(where, f"clause id {ident} is not larger than every earlier id ({top})")
        value = {-x: True for x in lits}  # literal -> True: the negated lemma
        for h in ids:
            clause = db.get(h)
            if clause is None:
                raise Invalid(where, f"lemma {ident}: hint {h} names no active clause")
            free = [x for x in clause if not value.get(-x)]
            if any(value.get(x) for x in free):
                raise Invalid(where, f"lemma {ident}: hint {h} is already satisfied")
            if len(free) > 1:
                raise Invalid(where, f"lemma {ident}: hint {h} is not unit ({len(free)} literals unassigned)")
            if not free:
                break  # a conflict: the lemma is RUP
            value[free[0]] = True
        else:
            raise Invalid(where, f"lemma {ident} is not RUP by its hints: propagating them gives no conflict")
        lemmas += 1
        if not lits:
            if i + 1 != len(steps):
                raise Malformed(f"{pointer}/{i + 1}", "steps after the empty clause")
            return {"lemmas": lemmas, "deletions": deletions, "ignored": ignored}
        db[ident] = lits
        top = ident
    raise Invalid(pointer, f"the proof ends after {len(steps)} steps ({lemmas} lemmas accepted) without the empty clause: unsatisfiability is not proved")
