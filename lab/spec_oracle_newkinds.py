"""Spec oracle for this round's new certificate kinds, written from the spec alone.

Sources: docs/certificate-format-v2.md ("Signed kernels: the field `kernel`", "Kind
`rank-refutation`"), docs/certificate-format-v1.md (kind `lower-bound`, B1-B5) and
THEORY.md (U7, L1, L3, L4, L5, L8).  It imports nothing from kernelbounds: the chirotope
CNF, the LRAT / RUP replay, the L3 number and the chains-v1 witness count are this file's
own code.

`judge(doc)` returns (verdict, reason) with verdict one of
  "valid"        every rule the spec states holds;
  "invalid"      a rule fails (the reason says which);
  "malformed"    a field has the wrong type, or is missing / unknown;
  "limit"        the oracle's own size limits (a superset of the checker's stated ones);
  "restate"      the spec derives the verdict from another file (the signed orbit / linear
                 forms, orthant / crossing with a kernel): `restatement(doc)` gives that
                 file, whose checker verdict the campaign uses;
  "out-of-scope" the spec does not determine the verdict (the reason names the gap).
For false-accept counting only "valid" vs. the rest matters; malformed/limit/invalid are
all "not valid".
"""
from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

VARIANTS = ("position-independent", "position-dependent", "causal")
MAX_N = 64
MAX_LIST = 1_000_000


class Reject(Exception):
    def __init__(self, verdict, reason):
        super().__init__(reason)
        self.verdict, self.reason = verdict, reason


def _bad(reason):
    raise Reject("malformed", reason)


def _inv(reason):
    raise Reject("invalid", reason)


def _int(x, where):
    if type(x) is not int:
        _bad(f"{where}: not an integer")
    return x


def _str(x, where):
    if type(x) is not str:
        _bad(f"{where}: not a string")
    return x


def _keys(d, required, optional, where):
    if not isinstance(d, dict):
        _bad(f"{where}: not an object")
    for k in required:
        if k not in d:
            _bad(f"{where}/{k}: missing")
    for k in d:
        if k not in required and k not in optional:
            _bad(f"{where}/{k}: unknown field")


def _token(x, m, where):
    _str(x, where)
    if len(x) != m or set(x) - {"0", "1"}:
        _bad(f"{where}: not a token of {m} bits")
    return sum(1 << i for i, ch in enumerate(x) if ch == "1")


def _tokens(xs, m, where, most):
    """A list of at most `most` tokens of m bits (more is the oracle's limit)."""
    if not isinstance(xs, list):
        _bad(where)
    if len(xs) > most:
        raise Reject("limit", f"{where}: more than {most}")
    return [_token(x, m, f"{where}/{i}") for i, x in enumerate(xs)]


def popcount(x):
    return bin(x).count("1")


# --------------------------------------------------------------------------- rank-refutation
def chirotope_cnf(k, r, patterns, sorting_sign=True, cramer_alternates=True, cramer_both=True):
    """The canonical CNF of the spec (normalisation, 3-term GP, Cramer), deduplicated as sets.

    patterns: one tuple of k entries in {-1, 0, +1} per pair (already oriented).
    Returns the list of clauses (tuples of ints) in canonical order.  The keywords are the
    spec's reading when true; lab/attack_conventions.py builds misread CNFs by turning one
    off: chi of an unsorted tuple without the sign of its sorting permutation, Cramer
    coefficients without (-1)^j, and only the first of the two Cramer clauses.
    """
    index = {T: i + 1 for i, T in enumerate(itertools.combinations(range(k), r))}

    def var_sign(t):
        # sign of the sorting permutation of t (distinct entries) and the variable
        inv = sum(1 for x in range(len(t)) for y in range(x + 1, len(t)) if t[x] > t[y])
        return index[tuple(sorted(t))], (-1 if inv % 2 and sorting_sign else 1)

    seen, out = set(), []

    def add(clause):
        key = frozenset(clause)
        if key not in seen:
            seen.add(key)
            out.append(tuple(clause))

    add((index[tuple(range(r))],))
    for A in itertools.combinations(range(k), r - 2):
        rest = [x for x in range(k) if x not in A]
        for a, b, c, d in itertools.combinations(rest, 4):
            ts = [A + (a, b), A + (c, d), A + (a, c), A + (b, d), A + (a, d), A + (b, c)]
            vs = [var_sign(t) for t in ts]
            u = [v for v, _ in vs]
            p = [s for _, s in vs]
            e = (p[0] * p[1], -p[2] * p[3], p[4] * p[5])
            for tau in (1, -1):
                for x1, x3, x5 in itertools.product((1, -1), repeat=3):
                    X = [x1, tau * e[0] * x1, x3, tau * e[1] * x3, x5, tau * e[2] * x5]
                    add(tuple(-u[i] if X[i] == 1 else u[i] for i in range(6)))
    for s in patterns:
        forced = [q for q in range(k) if s[q] != 0]
        for S in itertools.combinations(forced, r + 1):
            lits = []
            for j in range(r + 1):
                c = (-1) ** (j if cramer_alternates else 0) * s[S[j]]
                w = index[S[:j] + S[j + 1:]]
                lits.append(w if c == 1 else -w)
            add(tuple(lits))
            if cramer_both:
                add(tuple(-x for x in lits))
    return out


def oriented_pattern(Q, a, b, threshold=2):
    """The sign pattern of the pair (a, b) on the queries Q: +1 where <q,b> - <q,a> >= threshold,
    -1 where it is <= -threshold, else 0; oriented so that its first nonzero entry is +1."""
    s = []
    for q in Q:
        d = popcount(q & b) - popcount(q & a)
        s.append(1 if d >= threshold else (-1 if d <= -threshold else 0))
    first = next((x for x in s if x), 1)
    return tuple(first * x for x in s)


def witness_family(Q, pairs, n, variant):
    """RR6: the witness inputs of the pairs (a, b) at the queries q that force a sign
    (|<q,a> - <q,b>| >= 2), with lo the key of the lower level and hi the other."""
    W = set()
    for (a, b) in pairs:
        for q in Q:
            la, lb = popcount(q & a), popcount(q & b)
            if abs(la - lb) < 2:
                continue
            lo, hi = (a, b) if la < lb else (b, a)
            if variant == "causal":
                W.add((a,) * (n - 1) + (q,))
                W.add((b,) * (n - 1) + (q,))
                W.add((lo,) + (hi,) * (n - 2) + (q,))
            else:
                W.add((q,) + (a,) * (n - 1))
                W.add((q,) + (b,) * (n - 1))
                if variant == "position-independent":
                    W.add((q, lo) + (hi,) * (n - 2))
                else:
                    for pos in range(1, n):
                        t = [q] + [hi] * (n - 1)
                        t[pos] = lo
                        W.add(tuple(t))
    return W


_INT = re.compile(r"[+-]?[0-9]+\Z")


def _ascii_int(t, where):
    """An ASCII decimal integer (the spec names no syntax; Unicode digits are refused)."""
    if not _INT.match(t):
        _bad(f"{where}: not integers")
    if len(t) > 4000:
        raise Reject("limit", f"{where}: a number of {len(t)} digits (oracle limit)")
    return int(t)


def _parse_ints(line, where):
    _str(line, where)
    return [_ascii_int(p, where) for p in line.split()]


def _lemma_lits(lits, nvars, where):
    if len(set(lits)) != len(lits):
        _bad(f"{where}: repeated literal")
    for x in lits:
        if x == 0 or abs(x) > nvars:
            _bad(f"{where}: literal out of range")
        if -x in lits:
            _bad(f"{where}: tautology")
    return lits


def replay_lrat_steps(clauses, nvars, steps):
    """LRAT with deletion lines `id d c... 0` (parsed before the integer-only lemma form)."""
    lemmas = []
    for i, line in enumerate(steps):
        where = f"/proof/steps/{i}"
        _str(line, where)
        toks = line.split()
        if len(toks) >= 2 and toks[1] == "d":
            ids = [_ascii_int(t, where) for t in [toks[0]] + toks[2:]]
            if ids[-1] != 0 or 0 in ids[1:-1] or any(c < 0 for c in ids[1:-1]):
                _bad(f"{where}: bad deletion")
            lemmas.append(("d", ids[1:-1], i))
        else:
            lemmas.append(("a", line, i))
    db = {i + 1: c for i, c in enumerate(clauses)}
    last_id = len(clauses)
    done = False
    for kind, payload, i in lemmas:
        where = f"/proof/steps/{i}"
        if done:
            _bad(f"{where}: step after the empty clause")
        if kind == "d":
            for c in payload:
                db.pop(c, None)
            continue
        nums = _parse_ints(payload, where)
        if len(nums) < 3 or 0 not in nums[1:]:
            _bad(f"{where}: truncated step")
        sid, body = nums[0], nums[1:]
        z = body.index(0)
        lits, rest = body[:z], body[z + 1:]
        if not rest or rest[-1] != 0 or 0 in rest[:-1]:
            _bad(f"{where}: hints not ended by 0")
        hints = rest[:-1]
        if any(h < 0 for h in hints):
            _bad(f"{where}: negative hint (RAT)")
        _lemma_lits(lits, nvars, where)
        if sid <= last_id:
            _inv(f"{where}: id does not exceed every earlier id")
        true = set(-x for x in lits)
        ok = False
        for h in hints:
            c = db.get(h)
            if c is None:
                _inv(f"{where}: hint {h} is not an active clause")
            if any(x in true for x in c):
                _inv(f"{where}: hint {h} satisfied")
            free = [x for x in c if -x not in true]
            if not free:
                ok = True
                break
            if len(free) > 1:
                _inv(f"{where}: hint {h} not unit")
            true.add(free[0])
        if not ok:
            _inv(f"{where}: hints end without a conflict")
        db[sid] = tuple(lits)
        last_id = sid
        if not lits:
            done = True
    return done


def _propagate(clauses_by_lit, clauses, true):
    """Unit propagation from the set of true literals; returns False on a conflict."""
    queue = list(true)
    while queue:
        lit = queue.pop()
        for ci in clauses_by_lit.get(-lit, ()):
            c = clauses[ci]
            if c is None:
                continue
            free, sat = [], False
            for x in c:
                if x in true:
                    sat = True
                    break
                if -x not in true:
                    free.append(x)
            if sat:
                continue
            if not free:
                return False
            if len(free) == 1:
                true.add(free[0])
                queue.append(free[0])
    return True


def replay_drat_rup(clauses, nvars, steps):
    """RUP over formula + accepted lemmas.  Deletions are all ignored: the oracle checks
    against a superset of the active clauses, which the spec says never accepts an unsound
    lemma; a deletion that the checker honours can only make the checker stricter."""
    db = [tuple(c) for c in clauses]
    occ = {}
    for ci, c in enumerate(db):
        for x in c:
            occ.setdefault(x, []).append(ci)
    if any(len(c) == 0 for c in db):
        return True
    done = False
    for i, line in enumerate(steps):
        where = f"/proof/steps/{i}"
        if done:
            _bad(f"{where}: step after the empty clause")
        _str(line, where)
        toks = line.split()
        dele = bool(toks) and toks[0] == "d"
        nums = [_ascii_int(t, where) for t in (toks[1:] if dele else toks)]
        if not nums or nums[-1] != 0 or 0 in nums[:-1]:
            _bad(f"{where}: not ended by a single 0")
        lits = _lemma_lits(nums[:-1], nvars, where)
        if dele:
            continue
        true = set(-x for x in lits)
        # all unit clauses of the database as starting assignments
        for c in db:
            if len(c) == 1:
                true.add(c[0])
        conflict = any(-x in true for x in list(true)) or not _propagate(occ, db, true)
        if not conflict:
            _inv(f"{where}: lemma is not RUP")
        db.append(tuple(lits))
        for x in lits:
            occ.setdefault(x, []).append(len(db) - 1)
        if not lits:
            done = True
    return done


def judge_refutation(doc):
    _keys(doc, ("format", "version", "kind", "m", "n", "variant", "kernel", "rank", "queries",
                "pairs", "solver", "proof", "claims"), (), "")
    if doc["format"] != "kernelbounds-certificate":
        _bad("/format")
    if _int(doc["version"], "/version") != 2:
        _bad("/version")
    m = _int(doc["m"], "/m")
    n = _int(doc["n"], "/n")
    if not 1 <= m <= 64:
        _bad("/m out of range")
    if not 3 <= n <= MAX_N:
        _bad("/n out of range")
    variant = _str(doc["variant"], "/variant")
    if variant not in VARIANTS:
        _bad("/variant")
    kernel = _str(doc["kernel"], "/kernel")
    if kernel == "signed-any-denominator":
        _inv("/kernel: signed-any-denominator refused")
    if kernel not in ("signed", "nonnegative"):
        _bad("/kernel")
    r = _int(doc["rank"], "/rank")
    if not 2 <= r <= 24:
        _bad("/rank out of 2..24")
    Q = _tokens(doc["queries"], m, "/queries", 24)
    ps = doc["pairs"]
    if not isinstance(ps, list) or not ps:
        _bad("/pairs")
    if len(ps) > MAX_LIST:
        raise Reject("limit", "/pairs")
    P = []
    for e, p in enumerate(ps):
        _keys(p, ("a", "b"), (), f"/pairs/{e}")
        P.append((_token(p["a"], m, f"/pairs/{e}/a"), _token(p["b"], m, f"/pairs/{e}/b")))
    sol = doc["solver"]
    _keys(sol, ("name", "version"), ("options",), "/solver")
    for key in sol:
        _str(sol[key], f"/solver/{key}")
    pr = doc["proof"]
    _keys(pr, ("format", "steps"), (), "/proof")
    fmt = _str(pr["format"], "/proof/format")
    if fmt not in ("lrat", "drat-rup"):
        _bad("/proof/format")
    steps = pr["steps"]
    if not isinstance(steps, list):
        _bad("/proof/steps")
    if len(steps) > MAX_LIST:
        raise Reject("limit", "/proof/steps")
    for i, s in enumerate(steps):
        _str(s, f"/proof/steps/{i}")
    cl = doc["claims"]
    _keys(cl, ("bound", "variables", "clauses", "witness_inputs"), (), "/claims")
    for key in cl:
        _int(cl[key], f"/claims/{key}")
    k = len(Q)
    if k < r:
        _inv("/queries: fewer than r")
    for i in range(1, k):
        if Q[i] <= Q[i - 1]:
            _inv(f"/queries/{i}: not increasing")
    nvars = math.comb(k, r)
    if nvars > 200_000:
        raise Reject("limit", "oracle: too many variables")
    patterns, seen = [], set()
    for e, (a, b) in enumerate(P):
        if a == b:
            _inv(f"/pairs/{e}: a = b")
        s = oriented_pattern(Q, a, b)
        if sum(1 for x in s if x) < r + 1:
            _inv(f"/pairs/{e}: fewer than r + 1 forced queries")
        if s in seen:
            _inv(f"/pairs/{e}: repeated pattern")
        seen.add(s)
        patterns.append(s)
    if cl["variables"] != nvars:
        _inv("/claims/variables")
    clauses = chirotope_cnf(k, r, patterns)
    if cl["clauses"] != len(clauses):
        _inv("/claims/clauses")
    if cl["bound"] != r + 1:
        _inv("/claims/bound")
    W = witness_family(Q, P, n, variant)
    if cl["witness_inputs"] != len(W):
        _inv("/claims/witness_inputs")
    if fmt == "lrat":
        done = replay_lrat_steps(clauses, nvars, steps)
    else:
        done = replay_drat_rup(clauses, nvars, steps)
    if not done:
        _inv("/proof/steps: no empty clause")
    return "valid", f"rank refutation r={r}: {len(clauses)} clauses, |W|={len(W)}"


# --------------------------------------------------------------------------- signed lower bounds
def least_r(N, S, k):
    """THEORY L3: the least r >= 1 with C(r+k-1, k) > N^2/(N + S)."""
    X = Fraction(N * N) / (N + S)
    r = 1
    while math.comb(r + k - 1, k) <= X:
        r += 1
    return r


def schedule_products(schedules, n, where="/schedules"):
    if not isinstance(schedules, list) or not schedules:
        _bad(where)
    prods, chains = {}, {}
    for s, sch in enumerate(schedules):
        _keys(sch, ("gap", "levels"), (), f"{where}/{s}")
        g = _int(sch["gap"], f"{where}/{s}/gap")
        lv = sch["levels"]
        if not isinstance(lv, list):
            _bad(f"{where}/{s}/levels")
        lv = [_int(x, f"{where}/{s}/levels") for x in lv]
        if g in prods:
            _inv(f"{where}/{s}: a second schedule for gap {g} (v1: one per gap that occurs)")
        if len(lv) < 2 or lv[0] != 0 or lv[-1] != g:
            _inv(f"{where}/{s}/levels: not 0 .. gap")
        P = 1
        for t in range(1, len(lv)):
            d = lv[t] - lv[t - 1]
            if d < 2:
                _inv(f"{where}/{s}/levels: link < 2")
            P *= (n - 2) * (d - 1)
        prods[g] = P
        chains[g] = lv
    return prods, chains


def _kernel_field(doc, kinds_allowed):
    if "kernel" not in doc:
        return "nonnegative"
    kern = doc["kernel"]
    if type(kern) is not str or kern not in ("nonnegative", "signed", "signed-any-denominator"):
        _bad("/kernel")
    if doc.get("version") != 2 or type(doc.get("version")) is not int:
        _bad("/version: a file with `kernel` declares version 2")
    if kern not in kinds_allowed:
        _inv(f"/kernel: {kern} not allowed here")
    return kern


def judge_lower(doc):
    kern = _kernel_field(doc, ("nonnegative", "signed", "signed-any-denominator"))
    if kern == "signed-any-denominator" and doc.get("variant") == "position-dependent":
        _inv("/kernel: signed-any-denominator with position-dependent")
    code = doc.get("code")
    if not (isinstance(code, dict) and "words" in code and "symmetry" not in doc):
        _orbit_bound(doc, kern)
        return "restate", "orbit / linear form: verdict of the unsigned restatement (K1)"
    _keys(doc, ("format", "version", "kind", "m", "n", "variant", "code", "queries",
                "schedules", "witness", "claims"), ("kernel",), "")
    if doc["format"] != "kernelbounds-certificate":
        _bad("/format")
    if _int(doc["version"], "/version") != (2 if "kernel" in doc else 1):
        _bad("/version: not the least version")
    m = _int(doc["m"], "/m")
    n = _int(doc["n"], "/n")
    if not 1 <= m <= 4096 or not 3 <= n <= MAX_N:
        _bad("/m or /n out of range")
    variant = _str(doc["variant"], "/variant")
    if variant not in VARIANTS:
        _bad("/variant")
    if doc["queries"] != "complement":
        _bad("/queries")
    _keys(code, ("words",), ("name",), "/code")
    if "name" in code:
        _str(code["name"], "/code/name")
    C = _tokens(code["words"], m, "/code/words", 20000)
    wit = doc["witness"]
    _keys(wit, ("rule",), ("inputs",), "/witness")
    if wit["rule"] != "chains-v1":
        _bad("/witness/rule")
    cl = doc["claims"]
    _keys(cl, ("bound", "k", "min_product", "witness_inputs"), (), "/claims")
    for key in cl:
        _int(cl[key], f"/claims/{key}")
    N = len(C)
    if N < 2 or len(set(C)) != N:
        _inv("/code/words: fewer than 2 or repeated")
    prods, chains = schedule_products(doc["schedules"], n)
    k = cl["k"]
    if k < 1:
        _inv("/claims/k < 1")
    if k > 64:
        raise Reject("limit", "oracle: k > 64")
    full = (1 << m) - 1
    gaps_by_row = []
    import numpy as np  # the gap matrix (exact integer popcounts)
    if m <= 63:
        arr = np.array(C, dtype=np.uint64)
        comp = (~arr) & np.uint64(full)
        for i in range(N):
            x = comp[i] & arr
            g = np.zeros(N, dtype=np.int64)
            y = x.copy()
            while y.any():
                g += (y & np.uint64(1)).astype(np.int64)
                y >>= np.uint64(1)
            gaps_by_row.append(g)
    else:
        for i in range(N):
            q = full & ~C[i]
            gaps_by_row.append(np.array([popcount(q & c) for c in C], dtype=np.int64))
    hist = {}
    for i in range(N):
        vals, cnts = np.unique(np.delete(gaps_by_row[i], i), return_counts=True)
        for v, c in zip(vals.tolist(), cnts.tolist(), strict=True):
            hist[v] = hist.get(v, 0) + c
    for g in hist:
        if g not in prods:
            _inv(f"/schedules: no schedule for gap {g}")
    if set(prods) - set(hist):
        _inv("/schedules: a schedule for a gap no pair has (v1: one per gap that occurs)")
    if cl["min_product"] != min(prods[g] for g in hist):
        _inv("/claims/min_product")
    S = sum(Fraction(c, prods[g] ** (2 * k)) for g, c in hist.items())
    b = least_r(N, S, k)
    want = b if kern == "nonnegative" else b - 1
    if cl["bound"] != want:
        _inv(f"/claims/bound: want {want} (L3 b = {b})")
    # B5 chains-v1 family
    p = n - 1 if variant == "position-dependent" else 1
    total = 0
    listed = wit.get("inputs")
    family = set() if listed is not None else None
    for i in range(N):
        q = full & ~C[i]
        qbits = [t for t in range(m) if q >> t & 1]

        def z(l, qbits=qbits):
            return sum(1 << t for t in qbits[:l])
        row_gaps = set(np.delete(gaps_by_row[i], i).tolist())
        Z = set(C)
        links = set()
        for g in row_gaps:
            lv = chains[g]
            inter = [z(l) for l in lv[1:-1]]
            Z.update(inter)
            seq = [C[i]] + inter
            for t in range(1, len(seq)):
                links.add((seq[t - 1], seq[t]))
        for j in range(N):
            if j != i:
                lv = chains[int(gaps_by_row[i][j])]
                prev = C[i] if len(lv) == 2 else z(lv[-2])
                links.add((prev, C[j]))
        total += len(Z) + p * len(links)
        if family is not None:
            for zz in Z:
                family.add(_inp(variant, q, [zz] * (n - 1)))
            for a, bb in links:
                if variant == "position-dependent":
                    for pos in range(n - 1):
                        ks = [bb] * (n - 1)
                        ks[pos] = a
                        family.add(_inp(variant, q, ks))
                else:
                    family.add(_inp(variant, q, [a] + [bb] * (n - 2)))
    if cl["witness_inputs"] != total:
        _inv(f"/claims/witness_inputs: want {total}")
    if listed is not None:
        if not isinstance(listed, list):
            _bad("/witness/inputs")
        got = set()
        for e, row in enumerate(listed):
            if not isinstance(row, list) or len(row) != n:
                _bad(f"/witness/inputs/{e}")
            t = tuple(_token(x, m, f"/witness/inputs/{e}") for x in row)
            if t in got:
                _bad(f"/witness/inputs/{e}: repeated")
            got.add(t)
        if got != family:
            _inv("/witness/inputs: not the rule's family")
    return "valid", f"lower bound {kern}: b = {b}, bound {want}, |W| = {total}"


def _orbit_bound(doc, kern):
    """O5 from the claimed orbit histograms (the histograms themselves are the restated
    file's business): bound = b - 1 for the signed classes, b otherwise."""
    cl = doc.get("claims")
    if not isinstance(cl, dict) or "orbits" not in cl or not isinstance(doc.get("n"), int):
        return
    try:
        prods, _ = schedule_products(doc.get("schedules"), doc["n"])
        N = cl["code_size"]
        k = cl["k"]
        if type(k) is not int or not 1 <= k <= 64 or type(N) is not int or N < 2:
            return
        S = Fraction(0)
        for o in cl["orbits"]:
            for e in o["gaps"]:
                S += Fraction(o["size"] * e["count"], prods[e["gap"]] ** (2 * k))
    except (Reject, KeyError, TypeError, ZeroDivisionError):
        return
    b = least_r(N, S, k)
    want = b if kern == "nonnegative" else b - 1
    if cl.get("bound") != want:
        _inv(f"/claims/bound: O5 from the claimed orbits gives b = {b}, want {want}")


def _inp(variant, q, keys):
    return tuple(keys) + (q,) if variant == "causal" else (q,) + tuple(keys)


def judge(doc):
    try:
        if not isinstance(doc, dict):
            _bad("not an object")
        kind = doc.get("kind")
        if kind == "rank-refutation":
            return judge_refutation(doc)
        if kind == "lower-bound":
            return judge_lower(doc)
        if kind == "orthant":
            _kernel_field(doc, ("nonnegative", "signed"))
            return "restate", "orthant: bound unchanged for signed (K2)"
        if kind == "crossing":
            _kernel_field(doc, ("nonnegative",))
            return "restate", "crossing: nonnegative only (K3)"
        return "out-of-scope", f"kind {kind!r} is not a new kind"
    except Reject as e:
        return e.verdict, e.reason
    except RecursionError:
        return "malformed", "nesting"


def restatement(doc):
    """The unsigned file the spec's K1-K3 reduce a kernel file to: `kernel` removed,
    `bound` + 1 for the signed classes (K1), the version the remaining features need."""
    d = dict(doc)
    kern = d.pop("kernel", "nonnegative")
    if doc.get("kind") == "lower-bound":
        d["claims"] = dict(d["claims"])
        if kern != "nonnegative" and type(d["claims"].get("bound")) is int:
            d["claims"]["bound"] += 1
        if "symmetry" not in d:
            d["version"] = 1
    return d
