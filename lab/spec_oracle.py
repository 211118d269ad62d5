"""An oracle written from the specification alone (docs/certificate-format-v1.md), for
judging the certificates the checker accepts (second adversarial campaign).

It imports nothing from kernelbounds (neither the checker nor the generator): only the
standard library and FLINT for exact ranks.  ``judge(doc)`` returns True when every
field is well-formed and every claim of the certificate is a true statement as the spec
defines it, computed by the most literal route the spec allows (brute force over inputs,
explicit witness families, explicit kernel matrices), False when a claim or a premise is
false, and None when the instance is too large for the literal route.  It covers every
field of every v1 kind: the header, every datum, every claim, and the free labels
(``construction``, ``code/name``, ``kernel/name``: any string).
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product, pairwise
from math import comb

RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
MAX_INPUTS = 400_000  # literal routes up to this many inputs / matrix entries


class Bad(Exception):
    """The document is not a true, well-formed certificate."""


def ok(cond: bool) -> None:
    if not cond:
        raise Bad


def is_int(x, lo=None, hi=None) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and (lo is None or x >= lo) and (hi is None or x <= hi)


def rational(x) -> Fraction:
    ok(isinstance(x, str) and RATIONAL.fullmatch(x) is not None)
    return Fraction(x)


def token(x, m: int) -> tuple[int, ...]:
    ok(isinstance(x, str) and len(x) == m and set(x) <= {"0", "1"})
    return tuple(int(c) for c in x)


def keys(obj, required: set, optional: set = frozenset()) -> dict:
    ok(isinstance(obj, dict) and required <= obj.keys() <= required | optional)
    return obj


def ip(x, z) -> int:
    return sum(a & b for a, b in zip(x, z, strict=True))


def judge(doc) -> bool | None:
    try:
        keys(doc, {"format", "version", "kind"}, set(doc) if isinstance(doc, dict) else set())
        ok(doc["format"] == "kernelbounds-certificate" and doc["version"] == 1)  # every v1 kind uses only v1 fields
        kind = doc["kind"]
        if kind not in JUDGES:  # a kind added after v1: not this oracle's
            return None
        return JUDGES[kind](doc)
    except Bad:
        return False
    except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError):
        return False


# ----------------------------------------------------------------- construction


def all_tokens(m: int):
    return list(product((0, 1), repeat=m))


def construction(doc) -> bool | None:
    keys(doc, {"format", "version", "kind", "construction", "m", "n", "positions", "head", "claims"})
    ok(isinstance(doc["construction"], str))  # a free label
    m, n = doc["m"], doc["n"]
    ok(is_int(m, 1) and is_int(n, 1) and doc["positions"] == "all")
    head = keys(doc["head"], {"kernel", "values", "readout"})
    ok(keys(head["values"], {"type"})["type"] == "identity")
    r = keys(head["readout"], {"type", "alpha", "beta", "gamma"})
    ok(r["type"] == "query-affine")
    alpha, beta, gamma = rational(r["alpha"]), rational(r["beta"]), rational(r["gamma"])
    kern = head["kernel"]
    ok(isinstance(kern, dict))
    if 2**m * comb(2**m + n - 2, n - 1) > MAX_INPUTS or m > (6 if kern.get("type") == "level-expansion" else 8):
        return None
    toks = all_tokens(m)
    claims = doc["claims"]
    if kern.get("type") == "tensor-power":
        keys(kern, {"type", "f0", "f1", "g0", "g1"})
        f = {k: [rational(x) for x in kern[k]] for k in ("f0", "f1", "g0", "g1")}
        d = len(f["f0"])
        ok(d >= 1 and all(len(v) == d for v in f.values()))
        gram = [[sum(a * b for a, b in zip(f[f"f{x}"], f[f"g{z}"], strict=True)) for z in (0, 1)] for x in (0, 1)]
        ok(gram[0][0] == gram[0][1] == gram[1][0] == 1)  # v1's level-determined form (C1)

        def a(x, z):
            out = Fraction(1)
            for xi, zi in zip(x, z, strict=True):
                out *= gram[xi][zi]
            return out

        keys(claims, {"worst_error", "feature_rank", "kernel_rank", "nonnegative_features"})
        ok(claims["feature_rank"] == d**m)
        ok(claims["nonnegative_features"] is all(x >= 0 for v in f.values() for x in v))
    elif kern.get("type") == "softmax-bilinear":
        keys(kern, {"type", "exp_beta", "W_Q", "W_K"})
        b = rational(kern["exp_beta"])
        ok(b > 0)
        wq, wk = kern["W_Q"], kern["W_K"]
        ok(isinstance(wq, list) and isinstance(wk, list) and len(wq) == len(wk) >= 1)
        ok(all(isinstance(row, list) and len(row) == m and all(is_int(v) for v in row) for row in wq + wk))
        s = [[sum(wq[r][i] * wk[r][j] for r in range(len(wq))) for j in range(m)] for i in range(m)]
        ok(all(s[i][j] == (s[0][0] if i == j else 0) for i in range(m) for j in range(m)))  # C1: W_Q^T W_K = g I

        def a(x, z):
            qv = [sum(row[c] * x[c] for c in range(m)) for row in wq]
            zv = [sum(row[c] * z[c] for c in range(m)) for row in wk]
            return b ** sum(u * v for u, v in zip(qv, zv, strict=True))

        keys(claims, {"worst_error", "score_dim", "kernel_rank"})
        ok(claims["score_dim"] == len(wq))
    elif kern.get("type") == "level-expansion":
        keys(kern, {"type", "differences"})
        g = [rational(x) for x in kern["differences"]]
        ok(len(g) == m + 1)
        sets = [t for size in range(m + 1) if g[size] != 0 for t in combinations(range(m), size)]

        def a(x, z):  # the explicit features phi_Q(x)_T = g_|T| [T in x], phi_K(z)_T = [T in z]
            return sum((g[len(t)] for t in sets if all(x[i] and z[i] for i in t)), Fraction(0))

        keys(claims, {"worst_error", "feature_rank", "kernel_rank", "nonnegative_features"})
        ok(claims["feature_rank"] == len(sets))
        ok(claims["nonnegative_features"] is all(g[len(t)] > 0 for t in sets))
    else:
        return False
    table = {(x, z): a(x, z) for x in toks for z in toks}
    ok(all(v >= 0 for v in table.values()))  # a nonnegative kernel
    worst = Fraction(-1)
    for x in toks:  # every query and every multiset of the n-1 other tokens (order does not matter)
        for others in combinations_with_replacement(toks, n - 1):
            seq = (x, *others)
            den = sum(table[x, z] for z in seq)
            ok(den > 0)
            y = sum(table[x, z] * (alpha * ip(x, z) + beta * sum(x) + gamma) for z in seq) / den
            worst = max(worst, abs(y - min(ip(x, z) for z in seq)))
    ok(worst < Fraction(1, 2) and rational(claims["worst_error"]) == worst)
    ok(claims["kernel_rank"] == exact_rank([[table[x, z] for z in toks] for x in toks]))
    return True


def exact_rank(rows: list[list[Fraction]]) -> int:
    import flint

    if not rows or not rows[0]:
        return 0
    return flint.fmpq_mat([[flint.fmpq(v.numerator, v.denominator) for v in r] for r in rows]).rank()


# ----------------------------------------------------------------- lower-bound


def least_r(k: int, x: Fraction) -> int:
    r = 1
    while comb(r + k - 1, k) <= x:
        r += 1
    return r


def lower_bound(doc) -> bool | None:
    keys(doc, {"format", "version", "kind", "m", "n", "variant", "code", "queries", "schedules", "witness", "claims"})
    m, n, variant = doc["m"], doc["n"], doc["variant"]
    ok(is_int(m, 1) and is_int(n, 3) and variant in ("position-independent", "position-dependent", "causal"))
    ok(doc["queries"] == "complement")
    code = doc["code"]
    ok(isinstance(code, dict) and (not "name" in code or isinstance(code["name"], str)))
    sched = doc["schedules"]
    ok(isinstance(sched, list))
    table = {}
    for s in sched:
        keys(s, {"gap", "levels"})
        g, levels = s["gap"], s["levels"]
        ok(is_int(g, 0, m) and g not in table and isinstance(levels, list) and len(levels) >= 2)
        ok(all(is_int(v, 0, m) for v in levels) and levels[0] == 0 and levels[-1] == g)
        ok(all(b - a >= 2 for a, b in pairwise(levels)))
        table[g] = tuple(levels)
    if "linear" in code:
        return linear(doc, m, n, variant, code, table)
    keys(code, {"words"}, {"name"})
    words = [token(w, m) for w in code["words"]]
    big_n = len(words)
    ok(big_n >= 2 and len(set(words)) == big_n)
    if big_n > 200:
        return None
    queries = [tuple(1 - b for b in c) for c in words]
    claims = keys(doc["claims"], {"bound", "k", "min_product", "witness_inputs"})
    k = claims["k"]
    ok(is_int(k, 1))
    products, family = [], set()
    for i, (q, ci) in enumerate(zip(queries, words, strict=True)):
        for j, cj in enumerate(words):
            if i == j:
                continue
            gap = ip(q, cj)
            ok(gap in table)
            levels = table[gap]
            p = 1
            for a, b in pairwise(levels):
                p *= (n - 2) * (b - a - 1)
            products.append(p)
            ones = [t for t in range(m) if q[t]]
            chain = [ci] + [tuple(1 if t in ones[:lv] else 0 for t in range(m)) for lv in levels[1:-1]] + [cj]
            for step, z in enumerate(chain):
                ok(ip(q, z) == levels[step])  # the chain's keys have the scheduled levels
                family.add(place(q, [z] * (n - 1), variant))
            for a_key, b_key in pairwise(chain):
                family.update(mixed(q, a_key, b_key, n, variant))
        family.add(place(q, [ci] * (n - 1), variant))
    ok(claims["min_product"] == min(products))
    x = Fraction(big_n * big_n) / (big_n + sum(Fraction(1, p ** (2 * k)) for p in products))
    ok(claims["bound"] == least_r(k, x))
    ok(claims["witness_inputs"] == len(family))
    witness = keys(doc["witness"], {"rule"}, {"inputs"})
    ok(witness["rule"] == "chains-v1")
    if "inputs" in witness:
        listed = [tuple(token(t, m) for t in inp) for inp in witness["inputs"]]
        ok(all(len(inp) == n for inp in listed) and len(set(listed)) == len(listed) and set(listed) == family)
    return True


def place(q, keys_, variant):
    return (*keys_, q) if variant == "causal" else (q, *keys_)


def mixed(q, a, b, n, variant):
    """The mixed inputs of a link (a better, b worse): B5 and the position-dependent
    placements of a among the n-1 key positions."""
    if variant == "position-dependent":
        return {place(q, [a if j == t else b for j in range(n - 1)], variant) for t in range(n - 1)}
    return {place(q, [a] + [b] * (n - 2), variant)}


def linear(doc, m, n, variant, code, table) -> bool | None:
    keys(code, {"linear"}, {"name"})
    lin = keys(code["linear"], {"generator", "weight"})
    rows = [token(r, m) for r in lin["generator"]]
    w = lin["weight"]
    ok(is_int(w, 1, m) and rows)
    dim = len(rows)
    if dim > 12:
        return None
    words = {tuple(sum(c * r[t] for c, r in zip(coef, rows, strict=True)) % 2 for t in range(m)) for coef in product((0, 1), repeat=dim)}
    ok(len(words) == 2**dim)  # the rows are independent
    d_min = min(sum(c) for c in words if any(c))
    chosen = sorted(c for c in words if sum(c) == w)
    big_n = len(chosen)
    ok(big_n >= 2 and len(table) == 1)
    (gap, levels), = table.items()
    claims = keys(doc["claims"], {"bound", "k", "min_product", "witness_inputs", "code_size", "min_distance"})
    k = claims["k"]
    ok(is_int(k, 1) and claims["code_size"] == big_n and claims["min_distance"] == d_min)
    p = 1
    for a, b in pairwise(levels):
        p *= (n - 2) * (b - a - 1)
    ok(claims["min_product"] == p)
    if big_n > 1000:
        return None
    family = set()
    for ci in chosen:
        q = tuple(1 - b for b in ci)
        ones = [t for t in range(m) if q[t]]
        prefix = [ci] + [tuple(1 if t in ones[:lv] else 0 for t in range(m)) for lv in levels[1:-1]]
        for z in prefix + chosen:
            family.add(place(q, [z] * (n - 1), variant))
        for a_key, b_key in pairwise(prefix):
            family.update(mixed(q, a_key, b_key, n, variant))
        for cj in chosen:
            if cj == ci:
                continue
            gij = ip(q, cj)
            last = gij - levels[-2]  # the last link stretched to the pair's own gap
            ok(gij >= gap and last >= 2)
            pij = 1
            for a, b in zip(levels[:-1], list(levels[1:-1]) + [gij], strict=True):
                pij *= (n - 2) * (b - a - 1)
            ok(pij >= p)
            family.update(mixed(q, prefix[-1], cj, n, variant))
    x = Fraction(big_n * big_n) / (big_n + Fraction(big_n * (big_n - 1), p ** (2 * k)))
    ok(claims["bound"] == least_r(k, x))
    ok(claims["witness_inputs"] == len(family))
    ok(keys(doc["witness"], {"rule"})["rule"] == "chains-prefix-v1")
    return True


# ----------------------------------------------------------------- rank


def is_prime(p: int) -> bool:
    import flint

    return p >= 2 and flint.fmpz(p).is_prime()


def rank(doc) -> bool | None:
    keys(doc, {"format", "version", "kind", "m", "kernel", "claims", "lower", "upper"})
    m = doc["m"]
    ok(is_int(m, 1))
    kern = doc["kernel"]
    ok(isinstance(kern, dict))
    if kern.get("type") == "level":
        keys(kern, {"type", "h"}, {"name"})
        ok("name" not in kern or isinstance(kern["name"], str))
        h = [rational(x) for x in kern["h"]]
        ok(len(h) == m + 1)
        if m > 10:
            return None
        toks = all_tokens(m)
        matrix = {(x, z): h[ip(x, z)] for x in toks for z in toks}
        up = keys(doc["upper"], {"rule", "differences"})
        ok(up["rule"] == "level-expansion")
        diffs = [sum((-1) ** (j - i) * comb(j, i) * h[i] for i in range(j + 1)) for j in range(m + 1)]
        ok([rational(x) for x in up["differences"]] == diffs)
    elif kern.get("type") == "features":
        keys(kern, {"type", "tokens", "phi_q", "phi_k"})
        toks = [token(t, m) for t in kern["tokens"]]
        ok(len(set(toks)) == len(toks) and len(toks) <= 256)
        fq = [[rational(x) for x in r] for r in kern["phi_q"]]
        fk = [[rational(x) for x in r] for r in kern["phi_k"]]
        ok(len(fq) == len(fk) == len(toks) and len({len(r) for r in fq + fk}) <= 1)
        matrix = {(x, z): sum((a * b for a, b in zip(fq[i], fk[j], strict=True)), Fraction(0)) for i, x in enumerate(toks) for j, z in enumerate(toks)}
        ok(keys(doc["upper"], {"rule"})["rule"] == "exact")
    else:
        return False
    true_rank = exact_rank([[matrix[x, z] for z in toks] for x in toks])
    ok(keys(doc["claims"], {"rank"})["rank"] == true_rank)
    low = keys(doc["lower"], {"prime", "rows", "cols"})
    ok(is_int(low["prime"], 2) and is_prime(low["prime"]))
    idx = {}
    for key in ("rows", "cols"):
        idx[key] = list(toks) if low[key] == "all" else [token(t, m) for t in low[key]]
        ok(len(set(idx[key])) == len(idx[key]) and set(idx[key]) <= set(toks))
    ok(len(idx["rows"]) == len(idx["cols"]) == true_rank)
    return True  # (that the listed minor is nonsingular is a proof detail; the claim is the rank)


# ----------------------------------------------------------------- transcript


def transcript(doc) -> bool | None:
    keys(doc, {"format", "version", "kind", "q", "s", "m", "n", "inputs", "claims"})
    q, s, m, n = doc["q"], doc["s"], doc["m"], doc["n"]
    ok(is_int(q, 1) and is_int(s, 1) and is_int(m, 1) and is_int(n, q))
    inputs = [[token(t, m) for t in inp] for inp in doc["inputs"]]
    ok(all(len(inp) == n for inp in inputs))  # (no inputs: V = 0, bits = 0, vacuously true)
    ok(all(inp[:q] == inputs[0][:q] for inp in inputs))
    answers = [tuple(min(ip(inp[i], z) for z in inp) for i in range(q)) for inp in inputs]
    ok(all(0 <= a <= s for vec in answers for a in vec))  # answers lie in 0..s
    ok(len(set(answers)) == len(answers))
    v = len(answers)
    claims = keys(doc["claims"], {"answer_vectors", "bits"})
    ok(claims["answer_vectors"] == v and v <= (s + 1) ** q)
    bits = 0
    while 2**bits < v:
        bits += 1
    ok(claims["bits"] == bits)
    return True


JUDGES = {"construction": construction, "lower-bound": lower_bound, "rank": rank, "transcript": transcript}
