"""Evaluation of a user's head on a family of inputs (THEORY §1): the routes.

For each scored position the head's output is, by the per-query reduction of THEORY §1,
y = sum_j K_j F_j / sum_j K_j with K_j = <phi_Q(q), phi_K(x_j)> and
F_j = <w_q, v(x_j)> + b_q over the attended positions j.  The head solves the position
when sum_j K_j > 0 and |y - t| < 1/2.

Two passes decide every scored position, so that exact arithmetic still decides:

1. a **float pass** (numpy float64, vectorised over a block of inputs) computes y and a
   rigorous bound rho on |err_float - err_exact| (the *floating-point error bound*,
   documented in docs/api.md, "Evaluating heads at scale"): with u = 2^-53 and
   gamma_k = k u / (1 - k u),
     rho_K = 2 gamma_(r+2) sum_i |phi_Q,i| |phi_K,i|,  rho_F = 2 gamma_(dv+3) (sum |w||v| + |b|),
     rho_D = sum rho_K + 2 gamma_n sum |K|,  rho_N = sum (|K| rho_F + |F| rho_K + rho_K rho_F) + 2 gamma_(n+1) sum |K F|,
     rho_y = (|N| rho_D + D rho_N) / (D (D - rho_D)) + 2u |y|,  rho = 2 (rho_y + 2u (|y| + t)),
   valid when every head entry is 0 or of magnitude in [2^-200, 2^200] (no underflow or
   overflow) and D > 2 rho_D (Higham, Accuracy and Stability of Numerical Algorithms,
   §3.1; each dot product's error is at most gamma_k times the sum of the absolute terms,
   in any summation order, and the rational-to-float conversion of each entry adds one
   relative u; the outer factor 2 covers the rounding of rho itself).
   A position is *decided by the float pass* only when this enclosure lies wholly on one
   side of 1/2 (|err - 1/2| > rho) and the denominator's sign is certain;
2. an **exact re-check** (Fractions, :class:`kernelbounds.model.KernelHead`) of every
   other position, of the float-worst position and of the first failing one.

Heads outside the float range, or ``exact=True``, take the exact route for every
position.  ``Family.all(m, n)`` (every input, every position) is never listed: it takes
the extreme-class route of :mod:`.everyinput` (docs/api.md, "Every input").  The exact rank of the kernel over the family's tokens is rank(G_Q G_K) with
the r x r Gram matrices G = Phi^T Phi (exact over Q: A^T is injective on col(A)), so no
T x T matrix is built.
"""

from __future__ import annotations

import time
import dataclasses
from fractions import Fraction

import numpy as np

from ..errors import InvalidArgument
from ..bits import to_str
from .floatpass import HeadArrays, float_pass, head_arrays, negative_weights
from . import timelimit
from .exactrows import lcm
from .inputs import Family
from .results import Counterexample, Evaluation, kernels_covered, certified_bound, l1_violations
from .tables import HeadError, TableHead
from ..model import min_ip_target
from ..shown import shown

HALF = Fraction(1, 2)
CERTIFICATE_MAX_M = 8  # explicit-head certificates: the checker recomputes the value dimension up to m = 8
EXACT_RATE = 2e5  # exact (Fraction) multiply-adds per second, for the work estimate
FLOAT_RATE = 2e8  # float multiply-adds per second, for the work estimate


# ------------------------------------------------------------------ evaluation


SIZE_BITS = 1024  # integers up to this many bits cost about one exact step (the interpreter's overhead dominates)
KARATSUBA = 1.585  # log2(3): the cost of a multiplication grows as (bits)^1.585 beyond SIZE_BITS (measured, CPython 3.11)
FLOAT_BITS = 200  # FLOAT_RANGE: an entry within 2^-200 .. 2^200 (or 0) keeps the float pass


def _lcm_bits(denominators) -> int:
    """An upper bound on the bits of the lcm of the denominators, without computing it: the
    largest power of two among them plus the bits of every distinct odd part (a float's
    denominators, all powers of two, count once)."""
    twos, odd = 0, set()
    for d in denominators:
        k = (d & -d).bit_length() - 1
        twos = max(twos, k)
        odd.add(d >> k)
    return twos + sum(o.bit_length() for o in odd)


def _scaled_bits(values: list) -> tuple[int, bool]:
    """(bits of the integers the values become over the lcm of their denominators, at most;
    whether each is 0 or within the float pass's range)."""
    if not values:
        return 0, True
    top = max(x.numerator.bit_length() for x in values)
    floatable = all(x.numerator == 0 or abs(x.numerator.bit_length() - x.denominator.bit_length()) < FLOAT_BITS for x in values)
    return _lcm_bits({x.denominator for x in values}) + top, floatable


def number_sizes(head: TableHead) -> tuple[int, bool]:
    """(bits, floatable): an upper bound on the bits of the integers the exact routes
    multiply (``exactrows.ExactRows``: phi_Q times phi_K, each over the lcm of its
    denominators, times the readout and the values over theirs; a Fraction in lowest terms
    is no larger; phi_Q and the readout are scaled per query, counted here over all queries
    at once: at most twice the bits), and whether every entry is 0 or within the float
    pass's range."""
    tokens = list(head.phi_q)
    sizes = [_scaled_bits([x for z in tokens for x in table[z]]) for table in (head.phi_q, head.phi_k, head.value)]
    sizes.append(_scaled_bits([x for q in tokens for x in (*head.readout[q][0], head.readout[q][1])]))
    dv = len(next(iter(head.value.values()))) if head.value else 1
    return sum(bits for bits, _ in sizes) + head.rank.bit_length() + dv.bit_length(), all(ok for _, ok in sizes)


def number_cost(bits: int) -> float:
    """The cost of one exact step on integers of this many bits, in units of a small one."""
    return max(1.0, bits / SIZE_BITS) ** KARATSUBA


def estimate_seconds(family: Family, head: TableHead, exact: bool = False) -> float:
    """A rough duration, from the family's size (counted, not expanded), the head's sizes and
    the sizes of its numbers (``number_sizes``: every exact step costs ``number_cost`` of
    their bits).  A head beyond the float range takes the exact route whatever ``exact``
    says, as :func:`evaluate_family` does; the float routes count their least exact work
    (the integer rows of the best proposals, one exact re-check per block and position)."""
    from .everyinput import TOP

    r = head.rank
    dv = len(next(iter(head.value.values())))
    bits, floatable = number_sizes(head)
    cost = number_cost(bits)
    exact = exact or not floatable
    if family.everything:  # the extreme-class route: 4^m (m + 1) class terms, a few passes
        T = 2**family.m
        per = (r + dv) / 8 + (family.m + 1) * (2 if exact else 60)
        if exact:
            return T * T * per * cost / EXACT_RATE
        return T * T * per / FLOAT_RATE + T * (r + dv) * (TOP + 1) * cost / EXACT_RATE
    per = family.n * (r + dv + family.m) * len(family.positions())
    ops = family.size * per
    if exact:
        return ops * cost / EXACT_RATE + family.size * 1e-6
    return ops / FLOAT_RATE + family.size * 1e-6 + (family.size // 4096 + 1) * per * cost / EXACT_RATE


DENOMINATORS = ("positive", "nonzero")
LEAST_CANDIDATES = 256  # exact denominators per block and position on the float route


def evaluate_family(head: TableHead, family: Family, exact: bool | None = None, progress: bool = True, denominators: str = "positive",
                    max_seconds: float | None = None) -> Evaluation:
    """Evaluate a head on every scored position of a family, streaming its blocks; every
    input of ``Family.all(m, n)`` through the extreme-class route (:mod:`.everyinput`).

    exact=None (the default) takes the exact route for families of at most 20,000
    inputs (for Family.all: m <= 5) and the float pass plus exact re-checks above; True or
    False force a route.  The kernel may take any sign (THEORY L8); the result reports the
    exact least denominator.  ``denominators``: "positive" (THEORY §1: the output is
    defined when the denominator is > 0) or "nonzero" (defined when != 0, the class
    signed-any-denominator of L8 (b); listed families by the exact route; every input only
    when every denominator is > 0, where the two conventions agree).  ``max_seconds``: a
    time limit enforced while the evaluation runs (:mod:`.timelimit`; TimeLimit when it
    passes, nothing decided); compare :func:`estimate_seconds` with it first to refuse
    at once what would surely run longer.
    """
    with timelimit.limit(max_seconds):
        return _evaluate_family(head, family, exact, progress, denominators)


def _evaluate_family(head: TableHead, family: Family, exact: bool | None, progress: bool, denominators: str) -> Evaluation:
    head.validate()  # tables filled in after construction: one-line HeadError, not a FLINT error
    if head.caveat:  # an adapted head: the result carries where it differs from the library
        return dataclasses.replace(_evaluate_family(dataclasses.replace(head, caveat=""), family, exact, progress, denominators), caveat=head.caveat)
    if head.m != family.m:
        raise HeadError(f"the head's tokens have m = {head.m} bits but the family's have m = {family.m}: build the head for m = {family.m}")
    if denominators not in DENOMINATORS:
        raise HeadError(f"denominators must be one of {', '.join(DENOMINATORS)}, not {denominators!r}")
    start = time.perf_counter()
    h = head_arrays(head)
    if family.everything:
        return _evaluate_all(head, h, family, exact, start, denominators)
    nonzero = denominators == "nonzero"
    if exact is None:
        exact = family.size <= 20_000
    use_float = h.floatable and not exact and not nonzero  # the float pass decides with positive denominators
    facts = _listed_pass(head, h, family, use_float, nonzero)
    kh = head.kernel_head(family.causal)
    first = _nth_input(family, h, facts["first_key"], kh, nonzero) if facts["first_key"] is not None else None
    worst_in = _nth_input(family, h, facts["worst_key"], kh, nonzero) if facts["worst_key"] is not None else None
    rows = np.flatnonzero(facts["seen"])
    worst_out, bound = facts["worst"], facts["bound"]
    result = Evaluation(
        inputs=facts["count"],
        positions=facts["count"] * len(family.positions()),
        worst_error=worst_out,
        failures=facts["failures"],
        first_failure=first,
        kernel_rank=kernel_rank(head, [h.tokens[k] for k in rows]),
        tokens=len(rows),
        negative_weights=negative_weights(head, h, rows),
        rechecked=facts["rechecked"],
        worst_error_bound=(max(bound, float(worst_out)) if worst_out is not None else None) if use_float else None,
        method="float+exact" if use_float else "exact",
        m=head.m,
        n=family.n,
        head_rank=head.rank,
        worst_input=worst_in,
        least_denominator=facts["least_denominator"],
        least_denominator_exact=facts["least_exact"],
        denominators=denominators,
    )
    return _with_verdict(head, h, family, result, start)


def exact_output(kh, tokens: tuple[int, ...], i: int, nonzero: bool = False) -> tuple[Fraction, Fraction | None]:
    """(denominator, y_i) exactly (THEORY §1); y is None when the denominator is <= 0, or
    == 0 with ``nonzero`` (then a negative denominator is allowed: THEORY L8 (b))."""
    attended = range(i + 1) if kh.causal else range(len(tokens))
    q = tokens[i]
    weights = [kh.weight(q, i, tokens[j], j) for j in attended]
    den = sum(weights, Fraction(0))
    if den == 0 or (den < 0 and not nonzero):
        return den, None
    values = [kh.value(tokens[j], j) for j in attended]
    mean = [sum((a * v[k] for a, v in zip(weights, values, strict=True)), Fraction(0)) / den for k in range(len(values[0]))]
    w, b = kh.readout(q, i)
    return den, Fraction(sum((x * y for x, y in zip(w, mean, strict=True)), Fraction(0))) + b


def _listed_pass(head: TableHead, h: HeadArrays, family: Family, use_float: bool, nonzero: bool = False) -> dict:
    """Every scored position of a streamed family: the float pass with its bound where it
    applies, Fractions for the rest (module docstring)."""
    from ..progress import bar

    kh = head.kernel_head(family.causal)
    seen = np.zeros(len(h.tokens), dtype=bool)
    failures, rechecked, count = 0, 0, 0
    first_key = worst_key = None  # (input number, position) of the first failing / the worst position
    worst, undefined, bound = Fraction(0), False, 0.0
    least: list = [None, True]  # the exact least denominator seen; False once candidates were capped

    def note(den: Fraction) -> None:
        if least[0] is None or den < least[0]:
            least[0] = den

    def exact_error(inp: tuple[int, ...], i: int) -> Fraction | None:
        den, y = exact_output(kh, inp, i, nonzero)
        note(den)
        return None if y is None else abs(y - min_ip_target(inp, i))

    def least_candidates(x: np.ndarray, i: int, den: np.ndarray, rden: np.ndarray, checked) -> None:
        """Exact denominators of the rows whose float enclosure may hold the block's least
        (the others are certainly larger); rows checked exactly anyway are skipped, and one
        query with one multiset of attended tokens is computed once."""
        lo, hi = den - rden, den + rden
        top = np.min(np.where(np.isfinite(hi), hi, np.inf))
        rows = np.flatnonzero(~(lo > top))
        if len(rows) > LEAST_CANDIDATES:  # many float ties: the least of the lowest enclosures
            rows = rows[np.argsort(np.where(np.isfinite(lo[rows]), lo[rows], -np.inf), kind="stable")[:LEAST_CANDIDATES]]
            least[1] = False
        seen = set()
        for b in rows.tolist():
            if b in checked:
                continue
            timelimit.check()
            inp = tuple(h.tokens[k] for k in x[b])
            key = (inp[i], tuple(sorted(inp[: i + 1] if family.causal else inp)))
            if key not in seen:
                seen.add(key)
                attended = range(i + 1) if family.causal else range(len(inp))
                note(sum((kh.weight(inp[i], i, inp[j], j) for j in attended), Fraction(0)))

    def earliest(key):
        return key if first_key is None or key < first_key else first_key

    with bar(family.size, "evaluate", "input") as progress_bar:
        for _tokens, x in family.blocks(h.lookup):
            timelimit.check()
            seen[x.ravel()] = True
            for pos in family.positions():
                i = pos - 1
                if use_float:
                    err, rho, status, (den, rden) = float_pass(h, x, i, family.causal)
                    bad = np.flatnonzero(status == 1)
                    failures += len(bad)
                    if len(bad):
                        first_key = earliest((count + int(bad[0]), pos))
                    check = set(np.flatnonzero(status == 2).tolist())
                    finite = np.where(np.isnan(err), -1.0, err)
                    top = int(np.argmax(finite))
                    check.add(top)  # the float-worst position, always exactly
                    bound = max(bound, float(finite[top] + rho[top])) if np.isfinite(rho[top]) else float("inf")
                    least_candidates(x, i, den, rden, check)
                else:
                    status, check = None, range(len(x))
                for b in sorted(check):
                    timelimit.check()
                    e = exact_error(tuple(h.tokens[k] for k in x[b]), i)
                    rechecked += 1
                    if e is None:
                        undefined = True
                    elif worst_key is None or e > worst:
                        worst, worst_key = e, (count + b, pos)
                    if e is None or e >= HALF:
                        if status is None or status[b] != 1:
                            failures += 1
                        first_key = earliest((count + b, pos))
                    elif status is not None and status[b] == 1:  # never happens if the bound is sound
                        raise ArithmeticError(f"the float bound misjudged input {count + b}: report this")
            count += len(x)
            progress_bar.update(len(x))
    return {"count": count, "failures": failures, "rechecked": rechecked, "first_key": first_key, "worst_key": worst_key,
            "worst": None if undefined else worst, "bound": bound, "seen": seen, "least_denominator": least[0], "least_exact": least[1]}


def _evaluate_all(head: TableHead, h: HeadArrays, family: Family, exact: bool | None, start: float, denominators: str = "positive") -> Evaluation:
    """Every position of every input of length n over {0,1}^m: the extreme-class route.  Its
    reduction to the extreme-class inputs (level minima, :mod:`.everyinput`) holds when every
    denominator is > 0, for a kernel of any sign; the result says whether it does."""
    from . import everyinput

    m, n = family.m, family.n
    if exact is None:
        exact = m <= 5
    least, where = everyinput.least_denominator(head, h, m, n, exact=exact)
    at = " ".join(to_str(x, m) for x in where.input)
    if least > 0:
        reduction = (f"holds: every denominator is > 0 (least {shown(least)}, at {at}), so the extreme-class (level-minimum) reduction "
                     "decides every input, whatever the kernel's sign (THEORY §1, L8 (a))")
    elif denominators == "nonzero":
        raise HeadError(f"every input cannot be decided for this head under the nonzero-denominator convention: the extreme-class "
                        f"(level-minimum) reduction needs positive denominators, and the denominator at {at} is {shown(least)} <= 0; "
                        f"evaluate a listed family instead (denominators='nonzero' decides listed inputs exactly)")
    else:
        reduction = (f"does not hold beyond the positive-denominator convention: the denominator at {at} is {shown(least)} <= 0, so the "
                     "head fails there (output undefined, THEORY §1); as a head whose output is defined when the denominator is "
                     "nonzero (THEORY L8 (b)) it is not decided by this route")
    out = everyinput.evaluate_all(head, h, m, n, exact=exact)
    kh = head.kernel_head()

    def counterexample(found):
        if found is None:
            return None
        inp = found.input
        return Counterexample(inp, 1, min_ip_target(inp, 0), kh.output(inp, 0), m)

    result = Evaluation(
        inputs=family.size,
        positions=family.size * n,
        worst_error=out.worst_error,
        failures=out.failures,
        first_failure=counterexample(out.first_failure),
        kernel_rank=kernel_rank(head, list(range(2**m))),
        tokens=2**m,
        negative_weights=negative_weights(head, h, np.arange(2**m), block=max(1, (1 << 22) >> m)),  # O(2^22) floats a block
        rechecked=out.rechecked,
        method=out.method,
        m=m,
        n=n,
        head_rank=head.rank,
        worst_input=counterexample(out.worst if out.undefined is None else out.undefined),
        failure_unit="position" if n == 1 else "class",
        least_denominator=least,
        denominators=denominators,
        reduction=reduction,
    )
    return _with_verdict(head, h, family, result, start)


def _with_verdict(head: TableHead, h: HeadArrays, family: Family, result: Evaluation, start: float) -> Evaluation:
    """The verdict facts: the certified bound, a contradiction of it (exit 5), the L1
    explanation of a failure, the certificate of a head that solves every input."""
    from dataclasses import replace

    bound = certified_bound(family)
    below = bound is not None and result.kernel_rank < bound
    covered = kernels_covered(family)  # a signed certificate's bound holds for signed heads too (THEORY L8)
    in_class = result.negative_weights == 0 or (result.denominator_sign == 1 and "signed" in covered) or "signed-any-denominator" in covered
    contradiction = below and result.solves and in_class
    violations: list[str] = []
    if family.everything and not result.solves:
        from .explain import l1_explanation

        violations = l1_explanation(head, h, result)
    elif family.certificate is not None and below and not contradiction:
        violations = l1_violations(head, family.certificate)
    return replace(
        result, certified_bound=bound, contradiction=contradiction, l1_violations=tuple(violations),
        _certificate=_certificate_maker(head, family, result), seconds=time.perf_counter() - start,
    )


def _certificate_maker(head: TableHead, family: Family, result: Evaluation):
    """A callable writing the explicit-head certificate, or the reason there is none."""
    if not family.everything:
        return "only an evaluation on every input (Family.all) proves that a head solves length n"
    if not result.solves:
        return f"the head does not solve every input ({result.failures} failing {result.failure_unit}es): no certificate"
    if result.negative_weights:
        return f"the kernel takes {result.negative_weights} negative values: outside the class of THEORY §1, no certificate"
    if family.n < 2 or family.m > CERTIFICATE_MAX_M:
        return f"explicit-head certificates are written for n >= 2 and m <= {CERTIFICATE_MAX_M} (a readout table of 4^m entries)"
    from .everyinput import certificate

    found = result.worst_input
    return lambda: certificate(head, family.m, family.n, result.worst_error, found.input[0], found.input[1:])


def evaluate(head: TableHead, family, scored: int | None = 0, causal: bool = False, exact: bool | None = None, denominators: str = "positive") -> Evaluation:
    """Evaluate a head on a Family, or on a list of input tuples (scored: 0 first,
    -1 last, None every position); ``denominators`` as in :func:`evaluate_family`."""
    if not isinstance(family, Family):
        inputs = tuple(tuple(inp) for inp in family)
        name = "all" if scored is None else ("last" if scored == -1 or scored == len(inputs[0]) - 1 else "first")
        if scored not in (None, 0, -1, len(inputs[0]) - 1):
            raise InvalidArgument("scored must be 0 (first), -1 (last) or None (every position)")
        cert = {"variant": "causal"} if causal else None
        family = Family(head.m, len(inputs[0]), name, len(inputs), cert, _listed=inputs)
    return evaluate_family(head, family, exact=exact, denominators=denominators)


def _nth_input(family: Family, h: HeadArrays, key, kh, nonzero: bool = False) -> Counterexample:
    """Input number key[0] of the family at position key[1] (counted from 1), exactly."""
    number, pos = key
    seen = 0
    for _, x in family.blocks(h.lookup):
        if number < seen + len(x):
            inp = tuple(h.tokens[k] for k in x[number - seen])
            return Counterexample(inp, pos, min_ip_target(inp, pos - 1), exact_output(kh, inp, pos - 1, nonzero)[1], h.bits.shape[1])
        seen += len(x)
    raise IndexError(number)


def kernel_rank(head: TableHead, tokens: list[int]) -> int:
    """Exact rank of [a(x, z)] over the tokens: rank(A B^T) = rank((A^T A)(B^T B)) over Q
    for A = phi_Q and B = phi_K rows (FLINT on integer-scaled r x r Gram matrices)."""
    import flint

    rows = [x for x in tokens if x in head.phi_q]
    if not rows:
        return 0

    def scaled(table) -> flint.fmpz_mat:
        vals = [table[x] for x in rows]
        d = lcm(*(v.denominator for r in vals for v in r))
        return flint.fmpz_mat([[int(v * d) for v in r] for r in vals])

    a, b = scaled(head.phi_q), scaled(head.phi_k)
    return (a.transpose() * a * (b.transpose() * b)).rank()


def family_from_document(doc: dict) -> tuple[list[tuple[int, ...]], int | None, dict | None]:
    """(inputs, scored position, the lower-bound certificate or None), listed: for small
    families only (use :func:`kernelbounds.heads.inputs.load_family` to stream)."""
    from .inputs import load_family

    fam = load_family(doc)
    scored = {"first": 0, "last": -1, "all": None}[fam.scored]
    return fam.inputs(), scored, fam.certificate
