"""Rule `explicit-head` (format v2): a head given by rational tables solves Min-IP at
length n on m bits, at every position of every input (THEORY §1, U5).

The file lists, for every token (index i = the token whose bit j is bit j of i),
phi_Q(i) and psi_K(i) in Q^r and the readout row F(i, .).  At query q the weights are
w(z) = <phi_Q(q), psi_K(z)> and the output on an input (q and a multiset M of n-1 other
tokens; position-independent, so every position of every input is one such pair) is
y = sum_{z in q+M} w(z) F(q, z) / sum w(z), with target t = min_{z in M} <q, z>.

Checked facts (docs/certificate-format-v2.md, "explicit-head"):
  E1  the kernel is nonnegative: w_q(z) >= 0 for every pair (q, z);
  E2  extremal route, every input: for each q and least level t, the three sums
      sum w, sum (u - (t - e) w), sum ((t + e) w - u)  (u = w F) are sums of one term per
      token, so their least value over the multisets with least level t is the term of q,
      plus the least term at level t, plus n-2 times the least term at levels >= t; all
      three least values must be > 0, >= 0, >= 0.  So every denominator is > 0 and
      |y - t| <= e on every input;
  E3  the claimed worst input attains |y - t| = e, and e < 1/2;
  E4  exhaustive route (when within the limit): every (q, multiset) pair is evaluated
      literally and the maximum of |y - t| is e;
  E5  feature rank = r (the table width), nonnegative_features, and (FLINT) the value
      dimension: the least dv with F(q, z) = <l_q, v(z)> + c_q, rank [F; 1...1] - 1.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement

from ..common import Outcome, expect_equal, rat, require_version, scale_to_ints
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits, exhaustive_inputs, require

HALF = Fraction(1, 2)
MAX_M = 12  # tables have 4^m readout entries
MAX_RANK = 4096
VALUE_DIM_M = 8  # FLINT rank of the (2^m + 1) x 2^m readout matrix up to this m


def _bits(node: Node) -> int:
    """The largest bit size of the rationals in a table (from their decimal length)."""
    longest = 1
    stack = [node.value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            longest = max(longest, len(v))
    return 4 * longest


def work(doc: Node, limits: Limits) -> int:
    """Bit-weighted elementary operations, from the sizes alone (before any work):
    kernel 4^m r products, the extremal route 4^m (m + 1) three-term updates, the
    exhaustive route when run, and FLINT's rank ~ 8^m / 64 word operations."""
    m = doc["m"].int(1, MAX_M, limit=limits.max_m)
    n = doc["n"].int(2, limit=limits.max_n)
    head = doc["head"]
    r = len(head["psi"].value[0]) if isinstance(head["psi"].value, list) and head["psi"].value and isinstance(head["psi"].value[0], list) else 1
    words = 1 + _bits(head) // 64
    T = 2**m
    total = T * T * (r + 2 + 3 * (m + 1))
    if exhaustive_inputs(m, n) <= limits.exhaustive_inputs:
        total += exhaustive_inputs(m, n) * 2 * n
    if m <= VALUE_DIM_M:
        total += T**3 // 64
    return total * words


def _table(node: Node, rows: int, cols: int) -> list[list[Fraction]]:
    return [[x.rational() for x in row.list(cols, length=cols)] for row in node.list(rows, length=rows)]


def _integer_rows(phi, psi, F, pointer: str) -> list[tuple[list[int], list[int]]]:
    """E1, then per query q integers (W, U) with W = D_q w_q and U = D_q w_q F(q, .) for one
    D_q > 0: psi is scaled by one common denominator, phi and F row by row."""
    T = len(psi)
    Psi, _ = scale_to_ints([x for row in psi for x in row])
    r = len(psi[0])
    cols = [Psi[k::r] for k in range(r)]  # column k of the scaled psi
    rows = []
    for q in range(T):
        Phi, _ = scale_to_ints(phi[q])
        W = [0] * T
        for k in range(r):
            if Phi[k]:
                c, col = Phi[k], cols[k]
                W = [a + c * b for a, b in zip(W, col)]
        bad = next((z for z in range(T) if W[z] < 0), None)
        if bad is not None:
            w = sum((a * b for a, b in zip(phi[q], psi[bad])), Fraction(0))
            raise Invalid(f"{pointer}/{q}", f"<phi_Q({q}), psi_K({bad})> = {rat(w)} < 0: the kernel takes a negative value")
        Fq, d = scale_to_ints(F[q])
        rows.append(([d * w for w in W], [w * f for w, f in zip(W, Fq)]))
    return rows


def _least_over_inputs(term: list[int], q: int, t: int, levels: list[int], k: int) -> int:
    """min over multisets M (n-1 tokens, least level t) of sum_{z in q+M} term(z)."""
    at = min(term[z] for z in range(len(term)) if levels[z] == t)
    above = min(term[z] for z in range(len(term)) if levels[z] >= t)
    return term[q] + at + k * above


def _extremal_route(W: list[int], U: list[int], q: int, n: int, e: Fraction, pointer: str) -> None:
    """E2 for one query: every input scored at q has denominator > 0 and |y - t| <= e."""
    levels = [(q & z).bit_count() for z in range(len(W))]
    en, ed = e.numerator, e.denominator
    for t in range(q.bit_count() + 1):
        if _least_over_inputs(W, q, t, levels, n - 2) <= 0:
            raise Invalid(pointer, f"some input with least level {t} has denominator <= 0")
        low = [ed * u - (ed * t - en) * w for u, w in zip(U, W)]
        if _least_over_inputs(low, q, t, levels, n - 2) < 0:
            raise Invalid(pointer, f"some input with least level {t} has y < t - {rat(e)}")
        high = [(ed * t + en) * w - ed * u for u, w in zip(U, W)]
        if _least_over_inputs(high, q, t, levels, n - 2) < 0:
            raise Invalid(pointer, f"some input with least level {t} has y > t + {rat(e)}")


def _error(W: list[int], U: list[int], q: int, others: tuple[int, ...]) -> Fraction:
    xs = (q, *others)
    t = min((q & z).bit_count() for z in xs)
    return abs(Fraction(sum(U[z] for z in xs), sum(W[z] for z in xs)) - t)


def _exhaustive_route(rows, m: int, n: int) -> Fraction:
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


def value_dim(F: list[list[Fraction]]) -> int:
    import flint

    rows = [scale_to_ints(row)[0] for row in F] + [[1] * len(F[0])]
    return flint.fmpz_mat(rows).rank() - 1


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj({"format", "version", "kind", "m", "n", "positions", "head", "claims"})
    require_version(doc, doc["kind"], 2, "the kind explicit-head")
    m = doc["m"].int(1, MAX_M, limit=limits.max_m)
    n = doc["n"].int(2, limit=limits.max_n)
    doc["positions"].str(("all",))
    head = doc["head"].obj({"phi", "psi", "readout"})
    amount = work(doc, limits)
    require(amount <= limits.max_feature_work, "/head", "the explicit-head work (bit-weighted operations)", amount, limits.max_feature_work)
    T = 2**m
    psi_rows = head["psi"].list(T, length=T)
    r = len(psi_rows[0].list(MAX_RANK))
    if r == 0:
        raise Invalid(psi_rows[0].pointer, "the feature rank must be >= 1")
    phi, psi = _table(head["phi"], T, r), _table(head["psi"], T, r)
    F = _table(head["readout"], T, T)
    claims = doc["claims"].obj({"worst_error", "worst_input", "feature_rank", "value_dim", "nonnegative_features"})
    e = claims["worst_error"].rational()
    routes: list[str] = []

    rows = _integer_rows(phi, psi, F, head["phi"].pointer)
    routes.append(f"kernel: <phi_Q(q), psi_K(z)> >= 0 on all {T * T} pairs")

    if e < 0:
        raise Invalid(claims["worst_error"].pointer, "the worst error cannot be negative")
    for q, (W, U) in enumerate(rows):
        _extremal_route(W, U, q, n, e, head["readout"][q].pointer)
    witness = claims["worst_input"].obj({"query", "others"})
    wq = witness["query"].token(m)
    others = tuple(x.token(m) for x in witness["others"].list(n - 1, length=n - 1))
    expect_equal(claims["worst_error"], e, _error(*rows[wq], wq, others), "the worst error (the error at the claimed worst input)")
    if e >= HALF:
        raise Invalid(claims["worst_error"].pointer, f"worst error {rat(e)} >= 1/2: the head does not solve length {n}")
    routes.append(f"extremal inputs: every denominator > 0 and |y - t| <= {rat(e)} at all {exhaustive_inputs(m, n)} inputs (per query and least level, the worst multiset is (a, b^(n-2))); attained at the claimed input")

    if exhaustive_inputs(m, n) <= limits.exhaustive_inputs:
        literal = _exhaustive_route(rows, m, n)
        expect_equal(claims["worst_error"], e, literal, "the worst error (exhaustive route)")
        routes.append(f"exhaustive: all {exhaustive_inputs(m, n)} (query, other tokens) inputs over {{0,1}}^{m}, worst error {rat(literal)}")
    else:
        routes.append(f"exhaustive: skipped ({exhaustive_inputs(m, n)} inputs, over the limit of {limits.exhaustive_inputs})")

    expect_equal(claims["feature_rank"], claims["feature_rank"].int(1), r, "the feature rank (width of the tables)")
    nonneg = all(x >= 0 for table in (phi, psi) for row in table for x in row)
    expect_equal(claims["nonnegative_features"], claims["nonnegative_features"].bool(), nonneg, "nonnegative_features")
    dv = claims["value_dim"].int(0)
    if m <= VALUE_DIM_M:
        expect_equal(claims["value_dim"], dv, value_dim(F), "the value dimension rank [F; 1] - 1")
        routes.append(f"FLINT: value dimension {dv} (affine rank of the readout columns)")
    else:
        routes.append(f"value dimension: not recomputed above m = {VALUE_DIM_M}; dv <= 2^m = {T} always suffices")
    sign = "nonnegative" if nonneg else "signed"
    summary = (
        f"an explicit head with {r} {sign} features (value dimension {dv}) solves Min-IP at every position of every "
        f"length-{n} input on {m} bits, worst error {rat(e)} < 1/2: r*(m', {n}) <= {r} for m' <= {m}"
    )
    return Outcome(summary, routes, version=2)
