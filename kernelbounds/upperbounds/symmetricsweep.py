"""The symmetry ansatz's sweep (THEORY U5, "Symmetry ansatz"): heads whose key features are
equivariant under a coordinate permutation pi, searched by central points and lazy token
rows (``centralsearch.search``) for one given permutation or, with ``"auto"``, for every
cycle type of S_m of order <= the rank in turn, each from one or more seeded starts, under
a wall-clock time limit.  Under the identity ``"()"`` the ansatz is every head of the rank
(t = R - 1 orbit features on one-token orbits): the general search.  A head found is
certified exactly (``Found``: the worst error over every input); finding none proves
nothing.  `kernelbounds general-head` and ``kb.symmetric_head`` run it; it is the
project's one alternation engine (the L1 relaxation, ``l1relaxation``, is the other search,
a gradient one, for n = 3).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InvalidArgument
from . import centralsearch, symmetric


@dataclass(frozen=True)
class Sweep:
    """What a sweep reached: the last search run (None when none started), its last
    progress line, the permutations it was to try, the wall-clock seconds, and whether the
    time limit ended it."""

    m: int
    n: int
    rank: int
    permutations: tuple[tuple[int, ...], ...]
    result: centralsearch.CentralResult | None
    last: centralsearch.Progress | None
    seconds: float
    out_of_time: bool

    @property
    def found(self):
        """The certified head (``centralsearch.Found``: ``worst_error``, ``certificate()``), or None."""
        return None if self.result is None else self.result.found

    @property
    def permutation(self) -> str:
        """The last permutation searched, in cycle notation ("()" when none was)."""
        return symmetric.show_cycles(self.result.ansatz.pi) if self.result else "()"


def permutations(m: int, rank: int, cycles: str = "auto") -> list[tuple[int, ...]]:
    """The permutations to try: every cycle type of S_m of order <= rank ("auto"), or the
    one given in cycle notation (InvalidArgument if it does not parse or its order exceeds
    the rank: the ansatz needs order(pi) <= rank features)."""
    if cycles == "auto":
        return [symmetric.cycle_type(p, m) for p in symmetric.cycle_types(m, rank)]
    try:
        pi = symmetric.parse_cycles(cycles, m)
    except ValueError as exc:
        raise InvalidArgument(str(exc)) from None
    if symmetric.order(pi) > rank:
        raise InvalidArgument(f"the permutation has order {symmetric.order(pi)} > rank {rank}")
    return [pi]


def sweep(m: int, n: int, rank: int, cycles: str = "auto", seconds: float | None = None, time_limit: float = 900.0, seed: int = 0, nonnegative: bool = True,
          report: Callable[[centralsearch.Progress], None] | None = None, clock: Callable[[], float] = time.monotonic, starts: int = 1) -> Sweep:
    """Search each permutation in turn from seeds ``seed``, ..., ``seed + starts - 1`` (at
    most ``seconds`` each run, ``time_limit`` in all) until a head is found;
    ``report(progress)`` after every iteration (its ``seconds_left`` is the whole sweep's)."""
    perms = permutations(m, rank, cycles)
    start = clock()
    until = start + time_limit
    res, last = None, None

    def progress(p: centralsearch.Progress) -> None:
        nonlocal last
        last = p
        p.seconds_left = max(0.0, until - clock())
        if report is not None:
            report(p)

    runs = [(pi, s) for pi in perms for s in range(seed, seed + starts)]
    for pi, s in runs:
        left = until - clock()
        if left <= 0:
            break
        ansatz = symmetric.Ansatz(m, pi, rank - symmetric.order(pi))
        res = centralsearch.search(ansatz, n, seconds=min(left, seconds or left), seed=s, nonnegative=nonnegative, report=progress)
        if res.found is not None:
            break
    out_of_time = (res is None or res.found is None) and (clock() >= until or (res is not None and res.timed_out))
    return Sweep(m, n, rank, tuple(perms), res, last, clock() - start, out_of_time)
