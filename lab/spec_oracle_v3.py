"""Spec oracle for kind `direct-sum` and kind `rank-extension` (header facts), from the spec alone.

Sources: docs/certificate-format-v2.md ("Kind `direct-sum`" DS0-DS5, the orbit form O1-O6 it
refers to, "Signed kernels" K0/K1, "Kind `rank-extension`" RE2-RE4) and
docs/certificate-format-v1.md (B2, B4, the chains-v1 family).  It imports nothing from
kernelbounds: codes, automorphisms, orbit closures, histograms, convolutions, the L3 number and
the closed-form witness count are this file's own code.

`judge_direct_sum(doc)` returns (verdict, reason), verdict one of
  "valid"    every rule the spec states holds (the mathematical claim follows);
  "invalid"  a rule fails (a wrong claim, a wrong orbit, ...);
  "malformed" a field has the wrong type or is missing / unknown;
  "limit"    over the oracle's own sizes (components of more than ORACLE_MAX_WORDS words are
             not enumerated here; such a component is judged only when it is byte-identical to
             a component of a committed seed whose facts were recorded by `remember_seed`);
For false accepts only "valid" vs. the rest matters.
"""
from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

from lab.spec_oracle_newkinds import Reject, _bad, _inv  # the shared verdict plumbing of the spec oracles

VARIANTS = ("position-independent", "position-dependent", "causal")
KERNELS = ("nonnegative", "signed", "signed-any-denominator")
ORACLE_MAX_WORDS = 100_000
ORACLE_MAX_CHOICES = 2_000
MAX_N = 64

_TOP = {"format", "version", "kind", "m", "n", "variant", "queries", "schedules", "witness", "kernel", "components", "claims"}
_TOP_REQUIRED = _TOP - {"kernel"}
_COMPONENT = {"m", "copies", "code", "symmetry", "claims"}
_CLAIMS = {"bound", "k", "min_product", "witness_inputs", "code_size"}

# facts of components too large to enumerate here, keyed by their canonical JSON (see remember_seed)
_TRUSTED: dict[str, tuple] = {}
_CACHE: dict[str, tuple] = {}


def _int(x, where, lo=None, hi=None):
    if type(x) is not int:
        _bad(f"{where}: not an integer")
    if lo is not None and x < lo:
        _bad(f"{where}: below {lo}")
    if hi is not None and x > hi:
        _bad(f"{where}: above {hi}")
    return x


def _obj(x, where, keys, required=None):
    if type(x) is not dict:
        _bad(f"{where}: not an object")
    extra = set(x) - set(keys)
    if extra:
        _bad(f"{where}: unknown field {sorted(extra)[0]}")
    missing = set(required if required is not None else keys) - set(x)
    if missing:
        _bad(f"{where}: missing field {sorted(missing)[0]}")
    return x


def _list(x, where, lo=0, hi=None):
    if type(x) is not list:
        _bad(f"{where}: not a list")
    if len(x) < lo or (hi is not None and len(x) > hi):
        _bad(f"{where}: length {len(x)} outside {lo}..{hi}")
    return x


def _token(x, m, where):
    if type(x) is not str or len(x) != m or set(x) - {"0", "1"}:
        _bad(f"{where}: not a token of {m} bits")
    return sum(1 << i for i, ch in enumerate(x) if ch == "1")


# ---------------------------------------------------------------- codes and orbits (O1-O3)

def _code_words(code, m, where):
    """The code's words as ints (bit i = character i), and whether it is linear."""
    if type(code) is not dict:
        _bad(f"{where}: not an object")
    if "words" in code:
        _obj(code, where, {"name", "words"}, {"words"})
        if "name" in code and type(code["name"]) is not str:
            _bad(f"{where}/name: not a string")
        words = [_token(w, m, f"{where}/words/{i}") for i, w in enumerate(_list(code["words"], f"{where}/words", 1))]
        if len(set(words)) != len(words):
            _inv(f"{where}/words: a repeated word")
        if len({bin(w).count("1") for w in words}) != 1:
            _inv(f"{where}/words: not of constant weight")
        return words
    _obj(code, where, {"name", "linear"}, {"linear"})
    if "name" in code and type(code["name"]) is not str:
        _bad(f"{where}/name: not a string")
    lin = _obj(code["linear"], f"{where}/linear", {"generator", "weight"})
    gens = [_token(g, m, f"{where}/linear/generator/{i}") for i, g in enumerate(_list(lin["generator"], f"{where}/linear/generator", 1))]
    w = _int(lin["weight"], f"{where}/linear/weight", 0)
    if len(gens) > 22:
        raise Reject("limit", "linear dimension over 22")
    # independence (BL1)
    basis = []
    for g in gens:
        x = g
        for b in basis:
            x = min(x, x ^ b)
        if x == 0:
            _inv(f"{where}/linear/generator: rows dependent")
        basis.append(x)
    if 2 ** len(gens) > 8 * ORACLE_MAX_WORDS * 4:
        raise Reject("limit", "oracle: too many codewords to enumerate")
    words = []
    span = [0]
    for g in gens:
        span += [s ^ g for s in span]
    words = sorted(s for s in span if bin(s).count("1") == w)
    if not words:
        _inv(f"{where}: no word of weight {w}")
    return words


def _perm_apply(p, x):
    y = 0
    t = 0
    while x:
        if x & 1:
            y |= 1 << p[t]
        x >>= 1
        t += 1
    return y


def component_facts(comp, where):
    """(m_c, weight, N, [(size, {gap: count})...] per claimed orbit) after O1-O3 and the gap >= 2 rule."""
    _obj(comp, where, _COMPONENT)
    m = _int(comp["m"], f"{where}/m", 1, 4096)
    _int(comp["copies"], f"{where}/copies", 1, 64)
    key = json.dumps([comp["m"], comp["code"], comp["symmetry"], comp["claims"]], sort_keys=True)
    if key in _CACHE:
        return _CACHE[key]
    skey = json.dumps([comp["m"], comp["code"], comp["symmetry"]], sort_keys=True)
    claims = _obj(comp["claims"], f"{where}/claims", {"code_size", "orbits"})
    sym = _obj(comp["symmetry"], f"{where}/symmetry", {"permutations"})
    perms = _list(sym["permutations"], f"{where}/symmetry/permutations", 1, 64)
    for i, p in enumerate(perms):
        _list(p, f"{where}/symmetry/permutations/{i}")
        for j, v in enumerate(p):
            _int(v, f"{where}/symmetry/permutations/{i}/{j}")
        if sorted(p) != list(range(m)):
            _inv(f"{where}/symmetry/permutations/{i}: not a permutation of 0..m-1")
    orbits = _list(claims["orbits"], f"{where}/claims/orbits", 1)
    parsed = []
    for o, orb in enumerate(orbits):
        ow = f"{where}/claims/orbits/{o}"
        _obj(orb, ow, {"representative", "size", "gaps"})
        rep = _token(orb["representative"], m, f"{ow}/representative")
        size = _int(orb["size"], f"{ow}/size")
        gaps = _list(orb["gaps"], f"{ow}/gaps")
        hist = []
        for e, g in enumerate(gaps):
            _obj(g, f"{ow}/gaps/{e}", {"gap", "count"})
            hist.append((_int(g["gap"], f"{ow}/gaps/{e}/gap"), _int(g["count"], f"{ow}/gaps/{e}/count")))
        parsed.append((rep, size, hist))
    code_size = _int(claims["code_size"], f"{where}/claims/code_size")
    if skey in _TRUSTED:
        words_set, weight, orbit_of = _TRUSTED[skey]
    else:
        if type(comp["code"]) is dict and "linear" in comp["code"] and type(comp["code"]["linear"]) is dict:
            gl = comp["code"]["linear"].get("generator")
            if type(gl) is list and len(gl) > 17:
                raise Reject("limit", "oracle: component too large")
        words = _code_words(comp["code"], m, f"{where}/code")
        if len(words) > ORACLE_MAX_WORDS:
            raise Reject("limit", "oracle: component too large")
        words_set = set(words)
        weight = bin(words[0]).count("1")
        for i, p in enumerate(perms):
            for wd in words:
                if _perm_apply(p, wd) not in words_set:
                    _inv(f"{where}/symmetry/permutations/{i}: not an automorphism")
        orbit_of = {}
        for wd in words:
            if wd in orbit_of:
                continue
            orbit_of[wd] = wd
            stack = [wd]
            while stack:
                x = stack.pop()
                for p in perms:
                    y = _perm_apply(p, x)
                    if y not in orbit_of:
                        orbit_of[y] = wd
                        stack.append(y)
    N = len(words_set)
    sizes = Counter(orbit_of.values())
    seen = set()
    out = []
    for o, (rep, size, hist) in enumerate(parsed):
        ow = f"{where}/claims/orbits/{o}"
        if rep not in words_set:
            _inv(f"{ow}/representative: not a code word")
        root = orbit_of[rep]
        if root in seen:
            _inv(f"{ow}/representative: in an earlier orbit")
        seen.add(root)
        if size != sizes[root]:
            _inv(f"{ow}/size: {size} != {sizes[root]}")
        true = Counter(bin(c & ~rep).count("1") for c in words_set if c != rep)
        gaps = [g for g, _ in hist]
        if gaps != sorted(set(gaps)):
            _inv(f"{ow}/gaps: not increasing")
        if dict(hist) != dict(true):
            _inv(f"{ow}/gaps: histogram differs")
        for g in true:
            if g < 2:
                _inv(f"{ow}/gaps: gap {g} < 2")
        out.append((size, dict(true)))
    if len(seen) != len(sizes):
        _inv(f"{where}/claims/orbits: orbits do not cover the code")
    if code_size != N:
        _inv(f"{where}/claims/code_size")
    facts = (m, weight, N, tuple(out))
    _CACHE[key] = facts
    return facts


def remember_seed(doc):
    """Record the component facts of a committed file whose components are too large to enumerate here.

    Only the words-as-a-set / orbit partition are taken from nowhere: this records nothing but
    is a no-op for components within ORACLE_MAX_WORDS.  Large components (RM(2,6)) are recorded
    as 'trusted' with their claimed orbits, so mutants of the *other* fields of such files are
    still judged; a mutant that changes such a component is judged "limit".
    """
    for comp in doc.get("components", []):
        skey = json.dumps([comp["m"], comp["code"], comp["symmetry"]], sort_keys=True)
        if comp["claims"]["code_size"] > ORACLE_MAX_WORDS and skey not in _TRUSTED:
            key = json.dumps([comp["m"], comp["code"], comp["symmetry"], comp["claims"]], sort_keys=True)
            out = tuple((o["size"], {g["gap"]: g["count"] for g in o["gaps"]}) for o in comp["claims"]["orbits"])
            w = comp["code"]["linear"]["weight"] if "linear" in comp["code"] else comp["code"]["words"][0].count("1")
            _CACHE[key] = (comp["m"], w, comp["claims"]["code_size"], out)


# ---------------------------------------------------------------- schedules, L3, witness count

def schedule_product(levels, gap, n, where):
    if levels[0] != 0 or levels[-1] != gap or len(levels) < 2:
        _inv(f"{where}/levels: must run 0..gap")
    prod = 1
    for a, b in zip(levels[:-1], levels[1:], strict=True):
        if b - a < 2:
            _inv(f"{where}/levels: link < 2")
        prod *= (n - 2) * (b - a - 1)
    return prod


def l3_bound(N, S, k):
    """Least r >= 1 with C(r+k-1, k) > N^2 / (N + S)."""
    X = Fraction(N * N) / (N + S)
    lo, hi = 1, 2
    while not math.comb(hi + k - 1, k) > X:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if math.comb(mid + k - 1, k) > X:
            hi = mid
        else:
            lo = mid + 1
    return lo


def convolve(a, b):
    out = Counter()
    for g1, c1 in a.items():
        for g2, c2 in b.items():
            out[g1 + g2] += c1 * c2
    return out


def judge_direct_sum(doc):
    try:
        return ("valid", _judge(doc))
    except Reject as r:
        return (r.verdict, r.reason)


def true_claims(doc):
    """The claims the spec derives for doc (raises Reject when a non-claim rule fails)."""
    return _derive(doc)[0]


def _judge(doc):
    claims, info = _derive(doc)
    c = doc["claims"]
    for key in ("code_size", "bound", "min_product", "witness_inputs"):
        if c[key] != claims[key]:
            _inv(f"/claims/{key}: {c[key]} != {claims[key]}")
    return "every rule holds"


def _derive(doc):
    _obj(doc, "", _TOP, _TOP_REQUIRED)
    if doc["format"] != "kernelbounds-certificate":
        _bad("/format")
    if type(doc["version"]) is not int or doc["version"] not in (1, 2):
        _bad("/version")
    if doc["version"] != 2:
        _bad("/kind: direct-sum is version 2")
    if doc["kind"] != "direct-sum":
        _bad("/kind")
    m = _int(doc["m"], "/m", 1, 4096)
    n = _int(doc["n"], "/n", 3, MAX_N)
    if doc["variant"] not in VARIANTS:
        _bad("/variant")
    if doc["queries"] != "complement":
        _bad("/queries")
    wit = _obj(doc["witness"], "/witness", {"rule"})
    if wit["rule"] != "chains-v1":
        _bad("/witness/rule")
    kernel = doc.get("kernel", "nonnegative")
    if "kernel" in doc and kernel not in KERNELS:
        _bad("/kernel")
    if kernel == "signed-any-denominator" and doc["variant"] == "position-dependent":
        _inv("/kernel: signed-any-denominator with position-dependent")
    claims = _obj(doc["claims"], "/claims", _CLAIMS)
    k = _int(claims["k"], "/claims/k", 1)
    if k > 10_000:
        raise Reject("limit", "oracle: k over 10,000")
    for key in ("bound", "min_product", "witness_inputs", "code_size"):
        _int(claims[key], f"/claims/{key}")
    comps = _list(doc["components"], "/components", 1, 16)
    facts = []
    seen = set()
    for c, comp in enumerate(comps):
        f = component_facts(comp, f"/components/{c}")
        ident = json.dumps([comp["m"], comp["code"], comp["symmetry"]], sort_keys=True)
        if ident in seen:
            _inv(f"/components/{c}: repeated component")
        seen.add(ident)
        facts.append((f, comp["copies"]))
    if m != sum(f[0] * t for f, t in facts):
        _inv("/m")
    sched_list = _list(doc["schedules"], "/schedules", 1)
    sched = {}
    for s, e in enumerate(sched_list):
        _obj(e, f"/schedules/{s}", {"gap", "levels"})
        g = _int(e["gap"], f"/schedules/{s}/gap")
        lv = _list(e["levels"], f"/schedules/{s}/levels", 2)
        for i, v in enumerate(lv):
            _int(v, f"/schedules/{s}/levels/{i}")
        if g in sched:
            _inv(f"/schedules/{s}/gap: a second schedule for gap {g}")
        sched[g] = (lv, schedule_product(lv, g, n, f"/schedules/{s}"))
    N = 1
    T = 1
    for f, t in facts:
        N *= f[2] ** t
        T *= math.comb(len(f[3]) + t - 1, t)
    if T > ORACLE_MAX_CHOICES:
        raise Reject("limit", f"oracle: {T} orbit multisets")
    # DS2: per choice of multisets of orbits
    per_comp = []
    for f, t in facts:
        options = []
        for ms in itertools.combinations_with_replacement(range(len(f[3])), t):
            mult = math.factorial(t)
            for e in Counter(ms).values():
                mult //= math.factorial(e)
            rows = mult
            hist = Counter({0: 1})
            for o in ms:
                size, h = f[3][o]
                rows *= size
                hh = Counter(h)
                hh[0] += 1
                hist = convolve(hist, hh)
            options.append((rows, hist))
        per_comp.append(options)
    total = Counter()
    placements = n - 1 if doc["variant"] == "position-dependent" else 1
    wit_count = 0
    pair_total = 0
    choices = []
    for combo in itertools.product(*per_comp):
        rows = 1
        hist = Counter({0: 1})
        for r, h in combo:
            rows *= r
            hist = convolve(hist, h)
        if hist[0] != 1:
            _inv("gap-0 count != 1")
        del hist[0]
        choices.append((rows, hist))
    for rows, hist in choices:
        L, F = set(), set()
        for g, cnt in hist.items():
            total[g] += rows * cnt
            pair_total += rows * cnt
            if g not in sched:
                _inv("/schedules: missing a schedule for an occurring gap")
            lv = sched[g][0]
            L.update(lv[1:-1])
            F.update(zip(lv[:-2], lv[1:-1], strict=True))
        wit_count += rows * (N + len(L) + placements * (len(F) + N - 1))
    if pair_total != N * (N - 1):
        _inv("pairs do not sum to N(N-1)")
    for s, e in enumerate(sched_list):
        if e["gap"] not in total:
            _inv(f"/schedules/{s}/gap: no pair has this gap")
    S = sum(Fraction(cnt) / Fraction(sched[g][1]) ** (2 * k) for g, cnt in total.items())
    b = l3_bound(N, S, k)
    if kernel != "nonnegative":
        b -= 1
    return ({"code_size": N, "bound": b, "k": k, "min_product": min(sched[g][1] for g in total),
             "witness_inputs": wit_count}, {"gaps": dict(total)})


# ---------------------------------------------------------------- rank-extension header facts (RE2-RE4)

def extension_witness_count(base, m, n, variant, edges):
    """RE5 from the spec: |W| over the base pairs (padded) times the 2^j edge placements."""
    m0 = base["m"]

    def tok(t):
        return sum(1 << i for i, ch in enumerate(t) if ch == "1")
    queries = [tok(q) for q in base["queries"]] + [(1 << u) | (1 << v) for u, v in edges]
    j = len(edges)
    W = set()
    for pr in base["pairs"]:
        a0, b0 = tok(pr["a"]), tok(pr["b"])
        for c in range(2 ** j):
            a, b = a0, b0
            for i, (u, v) in enumerate(edges):
                if c >> i & 1:
                    b |= (1 << u) | (1 << v)
                else:
                    a |= (1 << u) | (1 << v)
            for q in queries:
                la, lb = bin(q & a).count("1"), bin(q & b).count("1")
                if abs(la - lb) < 2:
                    continue
                lo, hi = (a, b) if la < lb else (b, a)
                if variant == "causal":
                    W.update({(a,) * (n - 1) + (q,), (b,) * (n - 1) + (q,), (lo,) + (hi,) * (n - 2) + (q,)})
                elif variant == "position-dependent":
                    W.update({(q,) + (a,) * (n - 1), (q,) + (b,) * (n - 1)})
                    for p in range(n - 1):
                        keys = [hi] * (n - 1)
                        keys[p] = lo
                        W.add((q,) + tuple(keys))
                else:
                    W.update({(q,) + (a,) * (n - 1), (q,) + (b,) * (n - 1), (q, lo) + (hi,) * (n - 2)})
    assert m0 <= m
    return len(W)


def judge_rank_extension(doc, base, base_valid, base_sha):
    """Judge an extension against the base document (or None when no candidate has its sha256).

    RE5's witness count is not recomputed here (the campaign keeps the seed's count when the
    header is unchanged, and compares against the seed otherwise): a changed count is judged
    invalid only when the mutant changed nothing else, which the campaign knows.
    """
    try:
        _obj(doc, "", {"format", "version", "kind", "m", "n", "variant", "kernel", "base", "edges", "claims"})
        if doc["format"] != "kernelbounds-certificate":
            _bad("/format")
        if doc["kind"] != "rank-extension":
            _bad("/kind")
        if doc["version"] != 2 or type(doc["version"]) is not int:
            _bad("/version")
        if doc["variant"] not in VARIANTS:
            _bad("/variant")
        if doc["kernel"] not in KERNELS:
            _bad("/kernel")
        b = _obj(doc["base"], "/base", {"sha256", "name"}, {"sha256"})
        sha = b["sha256"]
        if type(sha) is not str or len(sha) != 64 or set(sha) - set("0123456789abcdef"):
            _bad("/base/sha256")
        if "name" in b:
            nm = b["name"]
            if type(nm) is not str or not 1 <= len(nm) <= 200 or set(nm) - set(
                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"):
                _bad("/base/name")
        m = _int(doc["m"], "/m", 1, 64)
        _int(doc["n"], "/n", 3, MAX_N)
        edges = _list(doc["edges"], "/edges")
        for i, e in enumerate(edges):
            _list(e, f"/edges/{i}", 2, 2)
            _int(e[0], f"/edges/{i}/0")
            _int(e[1], f"/edges/{i}/1")
        if len(edges) > 24:
            raise Reject("limit", "/edges: over 24")
        cl = _obj(doc["claims"], "/claims", {"rank", "bound", "witness_inputs"})
        if base is None or sha != base_sha:
            _inv("/base/sha256: missing")
        if base.get("kind") != "rank-refutation" or not base_valid:
            _inv("/base/sha256: not a valid rank-refutation")
        for f in ("n", "variant", "kernel"):
            if doc[f] != base[f]:
                _inv(f"/{f}")
        j = len(edges)
        if j < 1:
            _inv("/edges: none")
        m0 = base["m"]
        if m != m0 + 2 * j:
            _inv("/m")
        used = set()
        for i, (u, v) in enumerate(edges):
            if not u < v:
                _inv(f"/edges/{i}: u >= v")
            if not m0 <= u < m or not m0 <= v < m:
                _inv(f"/edges/{i}: out of range")
            if u in used or v in used:
                _inv(f"/edges/{i}: shares a coordinate")
            used.update((u, v))
        r0 = base["rank"]
        if cl["rank"] != r0 + j or type(cl["rank"]) is not int:
            _inv("/claims/rank")
        if cl["bound"] != r0 + j + 1 or type(cl["bound"]) is not int:
            _inv("/claims/bound")
        _int(cl["witness_inputs"], "/claims/witness_inputs")
        if "pairs" in base and len(base["pairs"]) * 2 ** j <= 200_000:
            if cl["witness_inputs"] != extension_witness_count(base, m, doc["n"], doc["variant"], edges):
                _inv("/claims/witness_inputs")
            return ("valid", "RE1-RE5 hold")
        return ("valid-header", "RE1-RE4 hold")
    except Reject as r:
        return (r.verdict, r.reason)
    except (KeyError, TypeError, AttributeError) as e:
        return ("malformed", f"oracle: {type(e).__name__}")
