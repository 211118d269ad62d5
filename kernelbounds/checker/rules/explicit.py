"""Rule `explicit-head` (format v2): a head given by rational tables solves Min-IP at
length n on m bits, at every position of every input (THEORY §1, U5).

The file lists, for every token (index i = the token whose bit j is bit j of i),
phi_Q(i) and psi_K(i) in Q^r and the readout row F(i, .).  At query q the weights are
w(z) = <phi_Q(q), psi_K(z)> and the output on an input (q and a multiset M of n-1 other
tokens; position-independent, so every position of every input is one such pair) is
y = sum_{z in q+M} w(z) F(q, z) / sum w(z), with target t = min_{z in M} <q, z>.

Checked facts (docs/certificate-format-v2.md, "explicit-head"):
  E1  the kernel is nonnegative: w_q(z) >= 0 for every pair (q, z);
  E2  extreme-class route, every input: for each q and least level t, the three sums
      sum w, sum (u - (t - e) w), sum ((t + e) w - u)  (u = w F) are sums of one term per
      token, so their least value over the multisets with least level t is the term of q,
      plus the least term at level t, plus n-2 times the least term at levels >= t; all
      three least values must be > 0, >= 0, >= 0.  So every denominator is > 0 and
      |y - t| <= e on every input;
  E3  the claimed worst input attains |y - t| = e, and e < 1/2;
  E4  exhaustive route (when within the limit): every (q, multiset) pair is evaluated
      literally and the maximum of |y - t| is e;
  E5  feature rank = r (the table width), nonnegative_features, and the value
      dimension: the least dv with F(q, z) = <l_q, v(z)> + c_q, rank [F; 1...1] - 1,
      exactly by ranks modulo proved primes (``modrank``) when m <= 8 and it fits the
      work budget; otherwise it is not checked and the verdict does not state it.
"""

from __future__ import annotations

import base64
import binascii
import sys
from array import array
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import combinations_with_replacement

from . import modrank
from ..common import Outcome, expect_equal, rat, require_version
from ..rational import scale_to_ints
from ..sizes import digits_bits, read_cost, row_height
from .. import claims as claim_of
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs
from ..cost import budget_left, div, lin, mul2

HALF = Fraction(1, 2)
MAX_M = 12  # tables have 4^m readout entries
MAX_RANK = 4096
VALUE_DIM_M = 8  # FLINT rank of the (2^m + 1) x 2^m readout matrix up to this m
PACKED = {"int16-le-base64": ("h", 2), "int32-le-base64": ("i", 4)}  # encoding: (array typecode, bytes per entry)

Row = Callable[[int], tuple[list[int], int]]  # q -> (integers, d > 0): the row is integers / d


def _log2(x: int) -> int:
    return max(x, 1).bit_length()


def _rows(value: object, count: int) -> list:
    rows = value if isinstance(value, list) else []
    return [rows[i] if i < len(rows) else [] for i in range(count)]


def work(doc: Node, limits: Limits) -> int:
    """Units (docs/soundness.md, "Cost model") from the sizes of the numbers check()
    builds, before any work: per query q the scaled rows have the heights H(phi_q) and
    H(F_q) (largest numerator + the lcm of the distinct denominators, from the text),
    psi one common H(psi); W = D_q w_q has H(phi_q) + H(psi) + log r bits, U = W F one
    H(F_q) more.  Counted: reading the tables (every table of strings), the scalings
    (``_scaling``: psi once, a row of phi and of a list-layout readout per pass), the kernel's r T
    products, E2, the exhaustive route when it runs, and the value dimension's first prime
    (m <= 8).  The rows are rebuilt, never stored: each query's row is counted once per
    pass (E1 with E2; the exhaustive route when it runs) and the worst row once more (the
    claimed worst input).  E2 at query q: the T tokens grouped by level, the terms A, B, C
    (products at U's and e's heights), then per least level t two terms for each token at
    a level >= t: sum_t #{z : <q, z> >= t} = T (|q|/2 + 1), counted as T (|q| + 2)."""
    m = doc["m"].int(1, MAX_M, limit=limits.max_m)
    n = doc["n"].int(2, limit=limits.max_n)
    head = doc["head"].value if isinstance(doc["head"].value, dict) else {}
    T = 2**m
    psi = _rows(head.get("psi"), T)
    r = max(1, len(psi[0]) if isinstance(psi[0], list) else 1)
    flat_psi = [x for row in psi if isinstance(row, list) for x in row]
    h_psi = sum(row_height(flat_psi))
    claims = doc["claims"].value if isinstance(doc["claims"].value, dict) else {}
    h_e = sum(row_height([claims.get("worst_error")]))
    readout = head.get("readout")
    packed = _packed_height(readout)
    total = read_cost([v for k, v in head.items() if k != "readout" or packed is None]) + _scaling(flat_psi) + T * r * lin(h_psi)
    if packed is not None:
        total += T * T * 2  # decoding, and one list item per entry
    worst_u, worst_row, f_bits = 0, 0, []
    passes = 2 if exhaustive_inputs(m, n) <= limits.exhaustive_inputs else 1
    for q, (phi_q, f_q) in enumerate(zip(_rows(head.get("phi"), T), _rows(None if packed is not None else readout, T), strict=True)):
        h_phi = sum(row_height(phi_q))
        h_f = packed if packed is not None else sum(row_height(f_q))
        h_w = h_phi + h_psi + _log2(r)  # before the row's readout scaling
        h_u = h_w + h_f  # W = d w and U = w F (d the readout row's lcm)
        worst_u = max(worst_u, h_u)
        f_bits.append(h_f)
        scalings = _scaling(phi_q) + _scaling(f_q)  # f_q is None (0) in the packed layout
        row = scalings + r * (T * (mul2(h_phi, h_psi) + lin(h_w)) + 20) + T * (lin(h_f) + 2 * mul2(h_f, h_w))  # 20: a list per feature
        total, worst_row = total + passes * row, max(worst_row, row)
        total += _scaling(f_q) if m <= VALUE_DIM_M else 0  # the value dimension scales the readout once more
        total += T * (3 * mul2(h_e, h_u) + 2 * lin(h_u + h_e) + 6) + (q.bit_count() + 2) * T * lin(h_u + h_e)
    total += worst_row
    if exhaustive_inputs(m, n) <= limits.exhaustive_inputs:
        total += exhaustive_inputs(m, n) * ((2 * n + 2) * lin(worst_u) + 2 * mul2(worst_u, worst_u) + 5 * n + 10)  # + the loop's own steps
    if m <= VALUE_DIM_M:
        total += modrank.per_prime(f_bits + [1], T)
    return total


def _scaling(value: object) -> int:
    """Units to bring a list of rational strings to one denominator (``scale_to_ints``): per
    entry an lcm step (a gcd, an exact division, a product at the lcm's height L, bounded by
    the distinct denominators' bits from the text), the division L // q and the product
    p (L // q): 3 divisions of L by the largest q and 2 products."""
    if not isinstance(value, list):
        return 0
    num, lcm_bits = row_height(value)
    den = max((digits_bits(len(x.partition("/")[2])) for x in value if isinstance(x, str)), default=0)
    return len(value) * (3 * div(lcm_bits, den) + 2 * mul2(max(num, den), lcm_bits))


def _packed_height(readout: object) -> int | None:
    """The bits of a packed readout's scaled entries (entry width + the denominator's
    bits), None for the list layout (and for anything check() will refuse)."""
    if not isinstance(readout, dict):
        return None
    encoding = readout.get("encoding")
    width = PACKED[encoding][1] if isinstance(encoding, str) and encoding in PACKED else 8
    d = readout.get("denominator")
    return 8 * width + (d.bit_length() if isinstance(d, int) else 64)


def _table(node: Node, rows: int, cols: int) -> list[list[Fraction]]:
    return [[x.rational() for x in row.list(cols, length=cols)] for row in node.list(rows, length=rows)]


def _packed(node: Node, T: int) -> Row:
    """The packed layout of the readout: F(q, z) = numerators[q T + z] / denominator, the
    numerators little-endian signed integers of 2 or 4 bytes, row-major, in base64."""
    node.obj({"denominator", "encoding", "numerators"})
    d = node["denominator"].int(1)
    code, size = PACKED[node["encoding"].str(tuple(PACKED))]
    text, chars = node["numerators"].str(), 4 * -(-size * T * T // 3)
    if len(text) != chars:
        raise node["numerators"].fail(f"expected {size * T * T} bytes ({T} x {T} entries of {size}) as {chars} base64 characters, got {len(text)}")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as err:
        raise node["numerators"].fail(f"not base64: {err}") from None
    if len(raw) != size * T * T:  # the padding decides the last group's length
        raise node["numerators"].fail(f"decodes to {len(raw)} bytes, expected {size * T * T}")
    if base64.b64encode(raw) != text.encode("ascii"):  # nonzero pad bits: one text per table
        raise node["numerators"].fail("not the standard base64 text of its bytes (the unused bits before the padding must be 0)")
    table = array(code)
    if table.itemsize != size:  # CPython's h and i are 2 and 4 bytes wherever it runs
        raise RuntimeError(f"array typecode {code} is {table.itemsize} bytes here")
    table.frombytes(raw)
    if sys.byteorder == "big":
        table.byteswap()
    return lambda q: (table[q * T : (q + 1) * T].tolist(), d)


def _readout(node: Node, T: int) -> Row:
    """Row q of the readout as (integers, d): the list layout row by row over its lcm, or
    the packed layout over its one denominator."""
    if isinstance(node.value, dict):
        return _packed(node, T)
    F = _table(node, T, T)
    return lambda q: scale_to_ints(F[q])


def _scaled(phi: list[list[Fraction]], psi: list[list[Fraction]]) -> Callable[[int], list[int]]:
    """q -> W = D_q w_q, integers for one D_q > 0: psi over one common denominator, phi row by row."""
    T, r = len(psi), len(psi[0])
    Psi, _ = scale_to_ints([x for row in psi for x in row])
    cols = [Psi[k::r] for k in range(r)]  # column k of the scaled psi

    def weights(q: int) -> list[int]:
        Phi, _ = scale_to_ints(phi[q])
        W = [0] * T
        for k in range(r):
            if Phi[k]:
                c, col = Phi[k], cols[k]
                W = [a + c * b for a, b in zip(W, col, strict=True)]
        return W

    return weights


def _nonnegative(W: list[int], q: int, phi: list[list[Fraction]], psi: list[list[Fraction]], pointer: str) -> None:
    """E1 at query q: every W[z] = D_q <phi_Q(q), psi_K(z)> with D_q > 0 is >= 0."""
    bad = next((z for z, w in enumerate(W) if w < 0), None)
    if bad is not None:
        w = sum((a * b for a, b in zip(phi[q], psi[bad], strict=True)), Fraction(0))
        raise Invalid(f"{pointer}/{q}", f"<phi_Q({q}), psi_K({bad})> = {rat(w)} < 0: the kernel takes a negative value")


def _integer_rows(weights: Callable[[int], list[int]], readout: Row, T: int) -> Iterator[tuple[list[int], list[int]]]:
    """Per query q, integers (W, U) with W = D_q w_q and U = D_q w_q F(q, .) for one D_q > 0."""
    for q in range(T):
        yield _integer_row(weights, readout, q)


def _integer_row(weights: Callable[[int], list[int]], readout: Row, q: int) -> tuple[list[int], list[int]]:
    W = weights(q)
    Fq, d = readout(q)
    return [d * w for w in W], [w * f for w, f in zip(W, Fq, strict=True)]


def _by_level(values: list[int], groups: list[list[int]]) -> list[list[int]]:
    return [[values[z] for z in group] for group in groups]


def _extreme_class_route(W: list[int], U: list[int], q: int, n: int, e: Fraction, pointer: str, where: str = "") -> None:
    """E2 for one query: every input scored at q has denominator > 0 and |y - t| <= e
    (`where` begins each reason: the query, when the pointer cannot name it).

    With e = en/ed the three per-token terms at least level t are W, A - t B and C + t B
    for A = ed U + en W, B = ed W, C = en W - ed U (ed (u - (t - e) w) and ed ((t + e) w - u)
    scaled by ed > 0).  Over the multisets M of n - 1 tokens with least level t, a sum of
    one term per token is least at M = (a, b^(n-2)), a the least term at level t and b the
    least at levels >= t: so each sum's least value is the term of q + min over level t +
    (n - 2) min over levels >= t, computed from the tokens grouped by level <q, z>."""
    k = q.bit_count()
    groups: list[list[int]] = [[] for _ in range(k + 1)]
    for z in range(len(W)):
        groups[(q & z).bit_count()].append(z)
    en, ed = e.numerator, e.denominator
    A = [ed * u + en * w for u, w in zip(U, W, strict=True)]
    B = [ed * w for w in W]
    C = [en * w - ed * u for u, w in zip(U, W, strict=True)]
    Wl, Al, Bl, Cl = (_by_level(v, groups) for v in (W, A, B, C))
    least_w = [min(g) for g in Wl]
    for t in range(k + 1):
        low = [min([a - t * b for a, b in zip(Al[l], Bl[l], strict=True)]) for l in range(t, k + 1)]
        high = [min([c + t * b for c, b in zip(Cl[l], Bl[l], strict=True)]) for l in range(t, k + 1)]
        if W[q] + least_w[t] + (n - 2) * min(least_w[t:]) <= 0:
            raise Invalid(pointer, f"{where}some input with least level {t} has denominator <= 0")
        if A[q] - t * B[q] + low[0] + (n - 2) * min(low) < 0:
            raise Invalid(pointer, f"{where}some input with least level {t} has y < t - {rat(e)}")
        if C[q] + t * B[q] + high[0] + (n - 2) * min(high) < 0:
            raise Invalid(pointer, f"{where}some input with least level {t} has y > t + {rat(e)}")


def _error(W: list[int], U: list[int], q: int, others: tuple[int, ...]) -> Fraction:
    xs = (q, *others)
    t = min((q & z).bit_count() for z in xs)
    return abs(Fraction(sum(U[z] for z in xs), sum(W[z] for z in xs)) - t)


def _exhaustive_route(rows: list[tuple[list[int], list[int]]], m: int, n: int) -> Fraction:
    """E4: max |y - t| over every query and multiset of n-1 other tokens, literally
    (integers throughout: |y - t| = |sum U - t sum W| / sum W)."""
    best_num, best_den = 0, 1
    tokens = range(2**m)
    for q, (W, U) in enumerate(rows):
        levels = [(q & z).bit_count() for z in tokens]
        for others in combinations_with_replacement(tokens, n - 1):
            den = W[q] + sum(W[z] for z in others)
            if den <= 0:
                raise Invalid("/head", f"denominator {den} <= 0 at query {q}, others {others}")
            t = min(levels[z] for z in others)
            num = abs(U[q] + sum(U[z] for z in others) - t * den)
            if num * best_den > best_num * den:
                best_num, best_den = num, den
    return Fraction(best_num, best_den)


def value_dim(F: list[list[int]], max_primes: int | None = None) -> tuple[int | None, int, int]:
    """(dv or None, primes used, lower bound) for the readout rows F scaled to integers (each
    by its own d > 0, which keeps the rank): dv = rank_Q [F; 1 ... 1] - 1 exactly, by ranks
    modulo proved primes (``modrank``: one prime when the rank is full, else enough primes
    to pass the Hadamard bound); None when that needs more than ``max_primes`` primes (the
    lower bound rank_p - 1 is then all that is known)."""
    rank, used, first = modrank.exact_rank([*F, [1] * len(F[0])], max_primes)
    return (None if rank is None else rank - 1), used, first - 1


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "m", "n", "positions", "head", "claims"})
    require_version(doc, doc["kind"], 2, "the kind explicit-head")
    m = doc["m"].int(1, MAX_M, limit=limits.max_m)
    n = doc["n"].int(2, limit=limits.max_n)
    doc["positions"].str(("all",))
    head = doc["head"].obj({"phi", "psi", "readout"})
    amount = work(doc, limits)  # the dispatcher refused it over work_budget; the rest sizes the value-dimension route
    T = 2**m
    psi_rows = head["psi"].list(T, length=T)
    r = len(psi_rows[0].list(MAX_RANK))
    if r == 0:
        raise Invalid(psi_rows[0].pointer, "the feature rank must be >= 1")
    phi, psi = _table(head["phi"], T, r), _table(head["psi"], T, r)
    readout = _readout(head["readout"], T)
    claims = doc["claims"].obj({"worst_error", "worst_input", "feature_rank", "value_dim", "nonnegative_features"})
    e = claims["worst_error"].rational()
    routes: list[str] = []

    if e < 0:
        raise Invalid(claims["worst_error"].pointer, "the worst error cannot be negative")
    weights = _scaled(phi, psi)
    packed = isinstance(head["readout"].value, dict)
    for q in range(T):  # one pass: E1 then E2 per query (the rows are rebuilt, never stored)
        W, U = _integer_row(weights, readout, q)
        _nonnegative(W, q, phi, psi, head["phi"].pointer)  # W = d D_q w_q, d > 0: the signs of w_q
        if packed:
            _extreme_class_route(W, U, q, n, e, head["readout"]["numerators"].pointer, f"query {q} (row {q} of the numerators): ")
        else:
            _extreme_class_route(W, U, q, n, e, head["readout"][q].pointer)
    routes.append(f"kernel: <phi_Q(q), psi_K(z)> >= 0 on all {T * T} pairs")
    witness = claims["worst_input"].obj({"query", "others"})
    wq = witness["query"].token(m)
    others = tuple(x.token(m) for x in witness["others"].list(n - 1, length=n - 1))
    expect_equal(claims["worst_error"], e, _error(*_integer_row(weights, readout, wq), wq, others), "the worst error (the error at the claimed worst input)")
    if e >= HALF:
        raise Invalid(claims["worst_error"].pointer, f"worst error {rat(e)} >= 1/2: the head does not solve length {n}")
    routes.append(f"extreme classes: every denominator > 0 and |y - t| <= {rat(e)} at all {exhaustive_inputs(m, n)} inputs (per query and least level, the worst multiset is an extreme one (a, b^(n-2))); attained at the claimed input")

    if exhaustive_inputs(m, n) <= limits.exhaustive_inputs:
        literal = _exhaustive_route(list(_integer_rows(weights, readout, T)), m, n)
        expect_equal(claims["worst_error"], e, literal, "the worst error (exhaustive route)")
        routes.append(f"exhaustive: all {exhaustive_inputs(m, n)} (query, other tokens) inputs over {{0,1}}^{m}, worst error {rat(literal)}")
    else:
        routes.append(f"exhaustive: skipped ({exhaustive_inputs(m, n)} inputs, over the limit of {limits.exhaustive_inputs})")

    expect_equal(claims["feature_rank"], claims["feature_rank"].int(1), r, "the feature rank (width of the tables)")
    nonneg = all(x >= 0 for table in (phi, psi) for row in table for x in row)
    expect_equal(claims["nonnegative_features"], claims["nonnegative_features"].bool(), nonneg, "nonnegative_features")
    dv = claims["value_dim"].int(0)
    shown = ""
    if m <= VALUE_DIM_M:
        F = [readout(q)[0] for q in range(T)]
        f_bits = [max((abs(x).bit_length() for x in row), default=0) for row in F] + [1]
        per = modrank.per_prime(f_bits, T)
        derived, used, low = value_dim(F, max(1, budget_left(limits, amount) // per + 1))
        if derived is not None:
            expect_equal(claims["value_dim"], dv, derived, "the value dimension rank [F; 1] - 1")
            routes.append(f"value dimension {dv}: rank [F; 1] = {dv + 1} exactly, modulo {used} proved prime(s) (FLINT nmod_mat; Hadamard bound when not full)")
            shown = f" (value dimension {dv})"
        else:
            routes.append(f"value dimension: not recomputed (rank [F; 1] >= {low + 1} modulo a prime; the exact confirmation would pass the work budget), so not stated")
    else:
        routes.append(f"value dimension: not recomputed above m = {VALUE_DIM_M}, so not stated (dv <= 2^m = {T} always suffices)")
    sign = "nonnegative" if nonneg else "signed"
    summary = (
        f"an explicit head with {r} {sign} features{shown} solves Min-IP at every position of every "
        f"length-{n} input on {m} bits, worst error {rat(e)} < 1/2: r*(m', {n}) <= {r} for m' <= {m}"
    )
    return Outcome(summary, routes, version=2, claim=claim_of.upper(r, m, n, nonneg))
