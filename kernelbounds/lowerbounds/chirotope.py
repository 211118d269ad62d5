"""The chirotope CNF of THEORY §2 U7 (generator side): rank r refuted by oriented matroids.

A head of kernel rank <= r with positive denominators that solves the L1 witness inputs of
the key pairs realises their forced signs in R^r: x_q = phi(q) (perturbed into general
position) and y = psi(a) - psi(b) with sign <x_q, y> = s_q(a, b).  The uniform chirotope
chi(T) = sign det(x_T) of the queries (ONE order: the queries sorted as integers) then

- satisfies every 3-term Grassmann-Pluecker relation: for a sorted (r-2)-set A and
  a < b < c < d outside it, the products chi(A,a,b) chi(A,c,d), -chi(A,a,c) chi(A,b,d),
  chi(A,a,d) chi(A,b,c) are not all of one sign (chi of an unsorted tuple = the sign of
  its sorting permutation times chi of the sorted set);
- for every pattern s (a pair's forced signs, up to a global sign) and every r + 1 forced
  queries q_0 < ... < q_r, the Cramer coefficients (-1)^k s_(q_k) chi(Q \\ q_k) are not all
  of one sign (the vectors s_q x_q lie in the open half-space <y, .> > 0);
- chi(first r queries) = + (a reflection).

One Boolean per sorted r-subset (true = +1).  This module builds that clause set on its
own (the checker, kernelbounds/checker/rules/rankrefutation.py, has its own builder; a test
compares the two) in the canonical order of docs/certificate-format-v2.md, because an LRAT
proof names clauses by their position.  Nonnegativity is not used.
"""

from __future__ import annotations

from itertools import combinations, product

from ..errors import InvalidArgument
from ..bits import inner


def sign_of(q: int, a: int, b: int) -> int:
    """s_q(a, b): +1 when <q,b> - <q,a> >= 2 (L1: K(q,a) > K(q,b)), -1 when
    <q,a> - <q,b> >= 2, 0 when the sign is not forced (n >= 3)."""
    gap = inner(q, b) - inner(q, a)
    return 1 if gap >= 2 else -1 if gap <= -2 else 0


def pattern(queries, a: int, b: int) -> tuple[int, ...]:
    """The forced signs of the queries on (a, b), oriented so the first nonzero is +1."""
    s = [sign_of(q, a, b) for q in queries]
    first = next((x for x in s if x), 1)
    return tuple(x * first for x in s)


def inversions(seq) -> int:
    """The number of inverted pairs of a sequence of distinct numbers."""
    return sum(1 for i, j in combinations(range(len(seq)), 2) if seq[i] > seq[j])


class Encoding:
    """The clause set for rank r over k queries (indices 0..k-1) and the given patterns."""

    def __init__(self, k: int, r: int, patterns):
        if not 2 <= r <= k:
            raise InvalidArgument(f"need 2 <= r <= number of queries, got r = {r}, k = {k}")
        self.k, self.r = k, r
        self.index = {t: i + 1 for i, t in enumerate(combinations(range(k), r))}
        self.patterns = list(dict.fromkeys(patterns))  # pair order, first occurrence
        self.clauses: list[tuple[int, ...]] = []
        self._seen: set[frozenset[int]] = set()
        self._add((1,))
        self._relations()
        self._cramer()

    @property
    def variables(self) -> int:
        return len(self.index)

    def _add(self, clause) -> None:
        key = frozenset(clause)
        if key not in self._seen:
            self._seen.add(key)
            self.clauses.append(tuple(clause))

    def signed_var(self, tup) -> tuple[int, int]:
        """(variable, e) with chi(tup) = e * chi(sorted tup)."""
        return self.index[tuple(sorted(tup))], -1 if inversions(tup) % 2 else 1

    def _relations(self) -> None:
        """Grassmann-Pluecker: forbid every assignment of the six variables that makes the
        three signed products equal (all +1 or all -1)."""
        for A in combinations(range(self.k), self.r - 2):
            rest = [x for x in range(self.k) if x not in A]
            for a, b, c, d in combinations(rest, 4):
                terms = [(+1, (a, b), (c, d)), (-1, (a, c), (b, d)), (+1, (a, d), (b, c))]
                factors = []
                for outer, left, right in terms:
                    (u, eu), (v, ev) = self.signed_var(A + left), self.signed_var(A + right)
                    factors.append((u, v, outer * eu * ev))
                bad = []
                for values in product((1, -1), repeat=6):
                    prods = [e * values[2 * i] * values[2 * i + 1] for i, (_, _, e) in enumerate(factors)]
                    if len(set(prods)) == 1:
                        bad.append((-prods[0], -values[0], -values[2], -values[4], values))
                variables = [w for u, v, _ in factors for w in (u, v)]
                for *_, values in sorted(bad):  # the spec's order: all +1 first, then by x1, x3, x5
                    # the clause "not this assignment": each literal false under it
                    self._add(tuple(-w if x > 0 else w for w, x in zip(variables, values, strict=True)))

    def _cramer(self) -> None:
        """Per pattern and forced (r+1)-subset: the coefficients are not all of one sign."""
        for s in self.patterns:
            forced = [i for i in range(self.k) if s[i]]
            for subset in combinations(forced, self.r + 1):
                coeff = []
                for pos, q in enumerate(subset):
                    rest = subset[:pos] + subset[pos + 1:]
                    coeff.append((self.index[rest], (-1) ** pos * s[q]))
                # "some coefficient is +1" and "some coefficient is -1"
                self._add(tuple(v if e > 0 else -v for v, e in coeff))
                self._add(tuple(-v if e > 0 else v for v, e in coeff))


def encode(queries, pairs, r: int) -> Encoding:
    """The CNF for sorted queries (integers) and key pairs (a, b); patterns with fewer than
    r + 1 forced queries give no clause and are dropped."""
    queries = sorted(queries)
    pats = [pattern(queries, a, b) for a, b in pairs]
    return Encoding(len(queries), r, [p for p in pats if sum(1 for x in p if x) >= r + 1])


def dimacs(enc: Encoding) -> str:
    lines = [f"p cnf {enc.variables} {len(enc.clauses)}"]
    lines += [" ".join(map(str, c)) + " 0" for c in enc.clauses]
    return "\n".join(lines) + "\n"
