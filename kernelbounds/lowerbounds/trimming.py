"""Trim a DRAT proof to the lemmas the empty clause depends on (generator side).

Forward pass: every lemma is checked by reverse unit propagation over the formula and all
earlier lemmas (deletions are dropped: keeping clauses never breaks a RUP step), and the
clauses that took part in its conflict (the reasons met by walking back from the
conflicting clause) are recorded.  Backward pass: from the empty clause, mark the lemmas
those records reach.  The output keeps the marked lemmas in order and no deletion lines; a
superset of a conflict's clauses still propagates to a conflict, so every kept lemma stays
RUP.  (drat-trim's idea, without core-first propagation.)  The checker re-verifies the
result; nothing here is trusted.
"""

from __future__ import annotations
from ..errors import KernelboundsError



class InvalidProof(KernelboundsError, ValueError):
    """The solver's proof is not a valid RUP proof of the formula: a line that is not a
    clause, a lemma that is not RUP, or no empty clause.  The solver answered UNSAT but its
    proof does not show it, so nothing is proved (the CLI's exit 6)."""


def _lits(line: str) -> tuple[bool, list[int]]:
    words = line.split()
    delete = bool(words) and words[0] == "d"
    body = words[1:] if delete else words
    try:
        lits = [int(w) for w in body]
    except ValueError:
        raise InvalidProof(f"a proof line is not a clause: {line[:40]!r}") from None
    if not lits or lits[-1] != 0 or 0 in lits[:-1]:
        raise InvalidProof(f"a proof line does not end with its only 0: {line[:40]!r}")
    return delete, lits[:-1]


class _Propagator:
    def __init__(self, variables: int):
        self.val: dict[int, bool] = {}
        self.why: dict[int, int] = {}  # variable -> clause id that implied it (-1: assumed)
        self.clauses: list[list[int]] = []
        self.watch: dict[int, list[int]] = {}
        self.trail: list[int] = []
        self.done = 0
        self.broken: int | None = None  # top-level conflict clause

    def is_false(self, x: int) -> bool:
        v = self.val.get(abs(x))
        return v is not None and v != (x > 0)

    def is_true(self, x: int) -> bool:
        return self.val.get(abs(x)) == (x > 0)

    def set(self, x: int, cid: int) -> None:
        self.val[abs(x)] = x > 0
        self.why[abs(x)] = cid
        self.trail.append(x)

    def run(self) -> int | None:
        """Propagate; the id of a conflicting clause, or None."""
        while self.done < len(self.trail):
            fl = -self.trail[self.done]
            self.done += 1
            keep = []
            ws = self.watch.get(fl, [])
            for idx, cid in enumerate(ws):
                c = self.clauses[cid]
                if c[0] == fl:
                    c[0], c[1] = c[1], c[0]
                if self.is_true(c[0]):
                    keep.append(cid)
                    continue
                for k in range(2, len(c)):
                    if not self.is_false(c[k]):
                        c[1], c[k] = c[k], c[1]
                        self.watch.setdefault(c[1], []).append(cid)
                        break
                else:
                    keep.append(cid)
                    if self.is_false(c[0]):
                        self.watch[fl] = keep + ws[idx + 1:]
                        return cid
                    self.set(c[0], cid)
            self.watch[fl] = keep
        return None

    def add(self, lits: list[int]) -> int:
        cid = len(self.clauses)
        c = sorted(lits, key=self.is_false)
        self.clauses.append(c)
        if self.broken is not None:
            return cid
        if not c or self.is_false(c[0]):
            self.broken = cid
            return cid
        if len(c) >= 2:
            self.watch.setdefault(c[0], []).append(cid)
            self.watch.setdefault(c[1], []).append(cid)
        if (len(c) == 1 or self.is_false(c[1])) and not self.is_true(c[0]):
            self.set(c[0], cid)
            conflict = self.run()
            if conflict is not None:
                self.broken = conflict
        return cid

    def used(self, conflict: int) -> set[int]:
        """The clauses of the implication graph behind a conflict (reasons included)."""
        out, stack, seen = set(), [conflict], set()
        while stack:
            cid = stack.pop()
            if cid in out:
                continue
            out.add(cid)
            for x in self.clauses[cid]:
                v = abs(x)
                if v not in seen and v in self.why:
                    seen.add(v)
                    if self.why[v] >= 0:
                        stack.append(self.why[v])
        return out

    def rup_hints(self, lits: list[int]) -> list[int] | None:
        """The clauses that refute the lemma's negation in propagation order (LRAT hints),
        or None if the lemma is not RUP."""
        if self.broken is not None:
            return _order(self, self.used(self.broken), self.broken)
        mark = len(self.trail)
        used = None
        for x in lits:
            if self.is_true(x):
                # a literal true at the top level: its reason chain, then the lemma is
                # refuted by the unit it became (the reason is the conflict)
                cid = self.why[abs(x)]
                used = _order(self, self.used(cid), cid)
                break
            if not self.is_false(x):
                self.set(-x, -1)
        if used is None:
            conflict = self.run()
            used = _order(self, self.used(conflict), conflict) if conflict is not None else None
        for x in self.trail[mark:]:
            del self.val[abs(x)], self.why[abs(x)]
        del self.trail[mark:]
        self.done = mark
        return used


def _order(p: _Propagator, used: set[int], conflict_last: int | None) -> list[int]:
    """The used clauses in the order their implied literals entered the trail (reasons before
    their uses), the conflicting clause last: a valid LRAT hint list."""
    position = {p.why[abs(x)]: i for i, x in enumerate(p.trail) if p.why.get(abs(x), -1) >= 0}
    body = sorted((c for c in used if c != conflict_last and c in position), key=position.__getitem__)
    return body + ([conflict_last] if conflict_last is not None else [])


def trim(variables: int, clauses, proof: list[str], tick=None) -> list[str]:
    """The needed lemmas of a DRAT proof (RUP steps only) as LRAT lines
    ``id lits 0 hints 0``: the formula's clauses are 1..len(clauses) in the given order, the
    kept lemmas follow consecutively, the last is the empty clause.  `tick` (if given) is
    called before each lemma's check; whatever it raises stops the trimming (a time limit)."""
    p = _Propagator(variables)
    for c in clauses:
        p.add(list(c))
    base = len(p.clauses)
    lemmas, hints = [], []
    for line in proof:
        delete, lits = _lits(line)
        if delete:
            continue
        if tick is not None:
            tick()
        order = p.rup_hints(lits)
        if order is None:
            raise InvalidProof(f"lemma {line[:40]!r} is not RUP")
        lemmas.append(lits)
        hints.append(order)
        if not lits:
            break
        p.add(lits)
    else:
        raise InvalidProof("the proof does not derive the empty clause")
    needed = {base + len(lemmas) - 1}
    for i in range(len(lemmas) - 1, -1, -1):
        if base + i in needed:
            needed.update(hints[i])
    new_id, out = {c: c + 1 for c in range(base)}, []
    for i, lits in enumerate(lemmas):
        if base + i in needed:
            new_id[base + i] = base + 1 + len(out)
            out.append(" ".join(map(str, [new_id[base + i], *lits, 0, *(new_id[h] for h in hints[i]), 0])))
    return out
