"""Hostile campaign over rank refutations and signed lower bounds, judged by the spec oracle.

Every mutant is checked by the real checker (`kb.check(doc)`, which runs the guarded child)
and judged by lab/spec_oracle_newkinds.py.  A false accept is a checker VALID on a mutant the
oracle does not find valid; a false reject is the converse (counted, with the reason).

    python lab/campaign_newkinds.py [--fast] [--subprocess K] [--seed S]

Deterministic: mutants are enumerated in a fixed order, samples drawn with random.Random(S).
"""
from __future__ import annotations

import copy
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from lab.spec_oracle_newkinds import judge, restatement  # noqa: E402

CERTS = ROOT / "certificates"
FAST_BASES = [
    "refutation-position-independent-m05-n3-r2", "refutation-position-dependent-m05-n4-r2",
    "refutation-causal-m05-n3-r2", "refutation-position-independent-m06-n3-r3",
    "witness-signed-m24-n3-r7", "lower-signed-any-denominator-position-independent-m24-n5",
]
SLOW_BASES = FAST_BASES + [
    "refutation-causal-m06-n5-r3", "refutation-position-dependent-m06-n3-r3",
    "lower-signed-position-independent-m24-n3",
    "lower-signed-any-denominator-position-independent-m32-n3",
]
PLAIN_BASES = ["lower-position-independent-m24-n5", "orthant-position-independent-m05-n3",
               "orthant-position-dependent-m08-n3", "crossing-position-independent-m05-n3",
               "crossing-causal-m05-n3"]


def load(name):
    return json.loads((CERTS / f"{name}.json").read_text())


def _set(doc, path, value):
    d = copy.deepcopy(doc)
    cur = d
    for p in path[:-1]:
        cur = cur[p]
    if value is _DEL:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return d


_DEL = object()
WEIRD = [("str", "1"), ("float", 1.0), ("bool", True), ("huge", 10 ** 400), ("nan", "NaN"),
         ("none", None), ("list", [1]), ("neg", -1), ("zero", 0), ("bomb", None)]


def _bomb(depth=100_000):
    x = []
    for _ in range(depth):
        x = [x]
    return x


def _weird(tag, v):
    return _bomb() if tag == "bomb" else v


def _fix_claims(doc):
    """Recompute variables, clauses and witness_inputs with the oracle's own code so the
    mutant tests the proof, not the counts."""
    import math
    from lab import spec_oracle_newkinds as o
    d = copy.deepcopy(doc)
    try:
        k, r = len(d["queries"]), d["rank"]
        d["claims"]["variables"] = math.comb(k, r)
        Q = [int(x[::-1], 2) for x in d["queries"]]
        P = [(int(p["a"][::-1], 2), int(p["b"][::-1], 2)) for p in d["pairs"]]
        pats = [s for s in (o.oriented_pattern(Q, a, b) for a, b in P) if any(s)]
        d["claims"]["clauses"] = len(o.chirotope_cnf(k, r, pats))
        d["claims"]["witness_inputs"] = len(o.witness_family(Q, P, d["n"], d["variant"]))
    except Exception:
        pass
    return d


def refutation_mutants(name, doc, rng):
    out = []
    add = lambda cls, d: out.append((cls, name, d))  # noqa: E731
    for f in ("m", "n", "rank"):
        for dv in (-1, 1):
            add(f"number:{f}", _set(doc, [f], doc[f] + dv))
    add("number:n-fixed", _fix_claims(_set(doc, ["n"], doc["n"] + 1)))
    for f in doc["claims"]:
        for dv in (-1, 1):
            add(f"number:claims/{f}", _set(doc, ["claims", f], doc["claims"][f] + dv))
    q = doc["queries"]
    for i in range(len(q) - 1):
        qq = q[:]
        qq[i], qq[i + 1] = qq[i + 1], qq[i]
        add("queries:swap", _fix_claims(_set(doc, ["queries"], qq)))
    for i in range(len(q)):
        add("queries:duplicate", _fix_claims(_set(doc, ["queries"], q[:i + 1] + q[i:])))
        add("queries:remove", _set(doc, ["queries"], q[:i] + q[i + 1:]))
        add("queries:remove-fixed", _fix_claims(_set(doc, ["queries"], q[:i] + q[i + 1:])))
        t = list(q[i])
        j = rng.randrange(len(t))
        t[j] = "1" if t[j] == "0" else "0"
        qq = sorted(q[:i] + ["".join(t)] + q[i + 1:], key=lambda x: int(x[::-1], 2))
        add("queries:bitflip-fixed", _fix_claims(_set(doc, ["queries"], qq)))
    add("queries:reversed", _fix_claims(_set(doc, ["queries"], q[::-1])))
    p = doc["pairs"]
    for e in range(len(p)):
        add("pairs:swap-ab", _set(doc, ["pairs", e], {"a": p[e]["b"], "b": p[e]["a"]}))
        add("pairs:duplicate", _fix_claims(_set(doc, ["pairs"], p[:e + 1] + p[e:])))
        add("pairs:remove-fixed", _fix_claims(_set(doc, ["pairs"], p[:e] + p[e + 1:])))
        add("pairs:a-equals-b", _set(doc, ["pairs", e, "b"], p[e]["a"]))
        t = list(p[e]["a"])
        j = rng.randrange(len(t))
        t[j] = "1" if t[j] == "0" else "0"
        add("pairs:bitflip-fixed", _fix_claims(_set(doc, ["pairs", e, "a"], "".join(t))))
    if len(p) > 1:
        add("pairs:reversed", _set(doc, ["pairs"], p[::-1]))
        add("pairs:rotated", _set(doc, ["pairs"], p[1:] + p[:1]))
    steps = doc["proof"]["steps"]
    S = len(steps)
    idx = sorted(set([0, S - 1, S // 2] + [rng.randrange(S) for _ in range(6)]))
    for i in idx:
        add("proof:delete-line", _set(doc, ["proof", "steps"], steps[:i] + steps[i + 1:]))
        add("proof:duplicate-line", _set(doc, ["proof", "steps"], steps[:i + 1] + steps[i:]))
        nums = steps[i].split()
        z = nums.index("0", 1)
        if z > 1:
            lit = rng.randrange(1, z)
            nn = nums[:]
            nn[lit] = str(-int(nn[lit]))
            add("proof:flip-literal", _set(doc, ["proof", "steps", i], " ".join(nn)))
            nn = nums[:]
            del nn[lit]
            add("proof:drop-literal", _set(doc, ["proof", "steps", i], " ".join(nn)))
        hints = list(range(z + 1, len(nums) - 1))
        if hints:
            h = rng.choice(hints)
            for tag, v in (("plus1", str(int(nums[h]) + 1)), ("neg", "-" + nums[h]),
                           ("zero", None), ("future", str(int(nums[0]) + 5))):
                nn = nums[:]
                if v is None:
                    del nn[h]
                else:
                    nn[h] = v
                add(f"proof:hint-{tag}", _set(doc, ["proof", "steps", i], " ".join(nn)))
            if len(hints) > 1:
                nn = nums[:]
                a, b = hints[0], hints[-1]
                nn[a], nn[b] = nn[b], nn[a]
                add("proof:hint-reorder", _set(doc, ["proof", "steps", i], " ".join(nn)))
        nn = nums[:]
        nn[0] = str(int(nums[0]) - 1 if i else 1)
        add("proof:id-not-increasing", _set(doc, ["proof", "steps", i], " ".join(nn)))
        if i + 1 < S:
            ss = steps[:]
            ss[i], ss[i + 1] = ss[i + 1], ss[i]
            add("proof:swap-lines", _set(doc, ["proof", "steps"], ss))
    add("proof:truncate", _set(doc, ["proof", "steps"], steps[:-1]))
    add("proof:empty", _set(doc, ["proof", "steps"], []))
    last_id = int(steps[-1].split()[0])
    nv = doc["claims"]["variables"]
    for v in (1, nv, 2):
        # a non-RUP unit lemma with no hints, and with the final step's hints, first in the proof
        first_id = int(steps[0].split()[0])
        add("proof:non-rup-lemma",
            _set(doc, ["proof", "steps"], [f"{first_id - 1 + 0} {v} 0 0"] + steps))
        add("proof:non-rup-lemma",
            _set(doc, ["proof", "steps"], [f"{first_id - 1} -{v} 0 1 0"] + steps))
    add("proof:after-empty", _set(doc, ["proof", "steps"], steps + [f"{last_id + 1} 1 0 1 0"]))
    add("proof:after-empty-deletion", _set(doc, ["proof", "steps"], steps + [f"{last_id} d 1 0"]))
    add("proof:delete-formula-clauses",
        _set(doc, ["proof", "steps"], [f"{int(steps[0].split()[0]) - 1} d "
                                       + " ".join(map(str, range(1, 120))) + " 0"] + steps))
    add("proof:delete-unknown-id",
        _set(doc, ["proof", "steps"], [f"{int(steps[0].split()[0]) - 1} d 999999 0"] + steps))
    add("proof:only-empty-clause", _set(doc, ["proof", "steps"], [f"{last_id} 0 1 2 3 0"]))
    add("proof:garbage-token", _set(doc, ["proof", "steps", 0], steps[0] + " x"))
    add("proof:no-final-zero", _set(doc, ["proof", "steps", 0], steps[0].rsplit(" ", 1)[0]))
    drat = [" ".join(s.split()[1:s.split().index("0", 1) + 1]) for s in steps]
    if S <= 50:
        add("proof:as-drat-rup", _set(_set(doc, ["proof", "format"], "drat-rup"), ["proof", "steps"], drat))
        add("proof:drat-truncated", _set(_set(doc, ["proof", "format"], "drat-rup"), ["proof", "steps"], drat[:-1]))
        add("proof:drat-nonrup", _set(_set(doc, ["proof", "format"], "drat-rup"), ["proof", "steps"], ["-1 0"] + drat))
        add("proof:drat-delete-units", _set(_set(doc, ["proof", "format"], "drat-rup"), ["proof", "steps"], ["d 1 0"] + drat))
    add("proof:format-unknown", _set(doc, ["proof", "format"], "drat"))
    add("proof:lrat-labelled-drat", _set(doc, ["proof", "format"], "drat-rup"))
    # a proof of a different (satisfiable) instance: the first r+1 queries only
    r = doc["rank"]
    add("proof:other-instance", _fix_claims(_set(doc, ["queries"], q[:r + 1])))
    for kern in ("nonnegative", "signed-any-denominator", "Signed", ""):
        add(f"kernel:{kern or 'empty'}", _set(doc, ["kernel"], kern))
    add("kernel:absent", _set(doc, ["kernel"], _DEL))
    for var in ("position-independent", "position-dependent", "causal", "bidirectional"):
        if var != doc["variant"]:
            add("variant:changed", _set(doc, ["variant"], var))
            add("variant:changed-fixed", _fix_claims(_set(doc, ["variant"], var)))
    for v in (1, 3):
        add("header:version", _set(doc, ["version"], v))
    add("header:kind", _set(doc, ["kind"], "lower-bound"))
    add("header:unknown-field", _set(doc, ["extra"], 1))
    add("header:solver-int", _set(doc, ["solver", "version"], 5))
    for f in ("m", "n", "rank", "queries", "pairs", "proof", "claims", "kernel", "version"):
        for tag, v in WEIRD:
            add(f"type:{tag}", _set(doc, [f], _weird(tag, v)))
    for tag, v in WEIRD[:7]:
        add(f"type:{tag}", _set(doc, ["claims", "bound"], v))
        add(f"type:{tag}", _set(doc, ["proof", "steps", 0], v))
        add(f"type:{tag}", _set(doc, ["queries", 0], v))
    # size bombs
    add("size:rank-24", _set(doc, ["rank"], 24))
    add("size:rank-huge", _set(doc, ["rank"], 10 ** 30))
    m = doc["m"]
    many = [format(i, f"0{m}b")[::-1] for i in range(min(2 ** m, 25))]
    add("size:25-queries", _set(doc, ["queries"], many))
    if m >= 5:
        add("size:24-queries-r12", _set(_set(doc, ["queries"], many[:24]), ["rank"], 12))
    add("size:many-pairs", _set(doc, ["pairs"], p * 20000))
    add("size:1e6-steps", _set(doc, ["proof", "steps"], ["1 0"] * 1_000_001))
    add("size:long-line", _set(doc, ["proof", "steps"], [f"{last_id} " + "1 " * 2_000_000 + "0 0"]))
    add("size:huge-id", _set(doc, ["proof", "steps", 0], "9" * 5000 + " 0 1 0"))
    return out


def signed_mutants(name, doc, rng):
    out = []
    add = lambda cls, d: out.append((cls, name, d))  # noqa: E731
    cl = doc["claims"]
    for f in ("bound", "k", "min_product", "witness_inputs", "code_size"):
        if f in cl:
            for dv in (-1, 1):
                add(f"lower:claims/{f}", _set(doc, ["claims", f], cl[f] + dv))
    for dv in (-1, 1):
        add("lower:n", _set(doc, ["n"], doc["n"] + dv))
    for kern in ("signed", "signed-any-denominator", "nonnegative", "unsigned"):
        if kern != doc["kernel"]:
            add("lower:kernel", _set(doc, ["kernel"], kern))
    add("lower:kernel-nonnegative-bound+1", _set(_set(doc, ["kernel"], "nonnegative"),
                                                 ["claims", "bound"], cl["bound"] + 1))
    add("lower:kernel-absent", _set(doc, ["kernel"], _DEL))
    add("lower:kernel-absent-v1", _set(_set(doc, ["kernel"], _DEL), ["version"], 1))
    add("lower:version-1", _set(doc, ["version"], 1))
    for var in VARIANTS_ALL:
        if var != doc["variant"]:
            add("lower:variant", _set(doc, ["variant"], var))
    sch = doc["schedules"]
    for s in range(len(sch)):
        lv = sch[s]["levels"]
        if len(lv) > 2:
            add("lower:schedule-merge", _set(doc, ["schedules", s, "levels"], [lv[0]] + lv[2:]))
        add("lower:schedule-drop", _set(doc, ["schedules"], sch[:s] + sch[s + 1:]))
    add("lower:schedule-duplicate", _set(doc, ["schedules"], sch + sch[:1]))
    if "words" in doc["code"]:
        w = doc["code"]["words"]
        if len(w) <= 50:
            add("lower:word-duplicate", _set(doc, ["code", "words"], w + w[:1]))
            add("lower:word-remove", _set(doc, ["code", "words"], w[1:]))
            t = list(w[0])
            t[0] = "1" if t[0] == "0" else "0"
            add("lower:word-bitflip", _set(doc, ["code", "words", 0], "".join(t)))
        if "inputs" in doc.get("witness", {}):
            ins = doc["witness"]["inputs"]
            add("lower:input-remove", _set(doc, ["witness", "inputs"], ins[1:]))
            add("lower:input-duplicate", _set(doc, ["witness", "inputs"], ins + ins[:1]))
    if "orbits" in cl:
        o = cl["orbits"]
        add("lower:orbit-size", _set(doc, ["claims", "orbits", 0, "size"], o[0]["size"] + 1))
        add("lower:orbit-count", _set(doc, ["claims", "orbits", 0, "gaps", 0, "count"],
                                      o[0]["gaps"][0]["count"] + 1))
        if len(o) > 1:
            add("lower:orbit-remove", _set(doc, ["claims", "orbits"], o[1:]))
    for tag, v in WEIRD:
        add(f"type:{tag}", _set(doc, ["kernel"], _weird(tag, v)))
    for tag, v in WEIRD[:7]:
        add(f"type:{tag}", _set(doc, ["claims", "bound"], v))
    return out


VARIANTS_ALL = ("position-independent", "position-dependent", "causal")


def plain_mutants(name, doc):
    """Unsigned lower-bound, orthant and crossing files given a `kernel` field."""
    out = []
    for kern in ("nonnegative", "signed", "signed-any-denominator"):
        d = _set(_set(doc, ["kernel"], kern), ["version"], 2)
        out.append(("plain:kernel-" + kern, name, d))
        out.append(("plain:kernel-v1", name, _set(d, ["version"], 1)))
        if doc["kind"] == "lower-bound" and kern != "nonnegative":
            out.append(("plain:kernel-bound-1", name,
                        _set(d, ["claims", "bound"], doc["claims"]["bound"] - 1)))
    return out


GUARD = [True]
# The spec names no syntax for the numbers of a proof step; the checker reads them as Python
# does (Unicode digits, "_" separators); the oracle reads ASCII decimals.  Such accepts are the
# same proof read the same way (no unsound lemma), so they are counted apart from false accepts
# (and pinned by an xfail test).
LENIENT = {"proof:hand-unicode-digit", "proof:hand-underscore-in-number"}


def run_one(doc):
    import kernelbounds as kb
    from kernelbounds.checker import Limits
    t = time.perf_counter()
    try:
        v = kb.check(doc) if GUARD[0] else kb.check(doc, Limits(time_limit=0, memory_limit=0))
        code, ok, ptr, why = int(v.code), v.ok, v.pointer, v.reason
    except Exception as e:  # a crash of the API is a finding
        code, ok, ptr, why = -1, False, "", f"EXCEPTION {type(e).__name__}: {e}"[:300]
    return code, ok, ptr, why, time.perf_counter() - t


def oracle_verdict(doc, cache):
    verdict, reason = judge(doc)
    if verdict == "restate":
        key = json.dumps(restatement(doc), sort_keys=True, default=str)[:200000]
        if key not in cache:
            code, ok, _, why, _ = run_one(restatement(doc))
            cache[key] = ("valid" if ok else "invalid", f"restated: {why or 'valid'}")
        return cache[key]
    return verdict, reason


def subprocess_check(doc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        try:
            json.dump(doc, f)
        except (ValueError, RecursionError):
            f.write("{")
        path = f.name
    try:
        p = subprocess.run([sys.executable, "-m", "kernelbounds.checker", path, "--json"],
                           capture_output=True, text=True, timeout=300, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        return p.returncode, p.stderr
    finally:
        os.unlink(path)


def build(fast, seed, bases=None):
    rng = random.Random(seed)
    mutants = []
    bases = bases or (FAST_BASES if fast else SLOW_BASES)
    for name in bases:
        doc = load(name)
        mutants.append(("base:committed", name, doc))
        if doc["kind"] == "rank-refutation":
            mutants += refutation_mutants(name, doc, rng)
        else:
            ms = signed_mutants(name, doc, rng)
            if "words" in doc["code"] and len(doc["code"]["words"]) > 100:
                ms = rng.sample(ms, min(len(ms), 4 if fast else 12))
            mutants += ms
    for name in PLAIN_BASES:
        mutants += plain_mutants(name, load(name))
    # proofs of a misread CNF (lab/attack_conventions.py: Cramer clauses without (-1)^j at
    # m = 4, r = 2, where the spec's CNF is satisfiable): valid LRAT / DRAT for the misread
    # CNF, claims of either CNF
    for path in sorted((ROOT / "lab" / "attacks").glob("*.json")):
        mutants.append(("attack:misread-cnf", path.stem, json.loads(path.read_text())))
    ref = load("refutation-causal-m05-n3-r2")
    st = ref["proof"]["steps"]
    last = int(st[-1].split()[0])
    hand = {
        "lemma-id-of-a-formula-clause": ["111 -7 0 1 85 97 0"] + st[1:],
        "empty-clause-from-the-unit-only": [f"{112} 0 1 0"],
        "trailing-hints-after-conflict": [st[0].rsplit(" ", 1)[0] + " 1 2 3 0"] + st[1:],
        "hint-to-itself": ["112 -7 0 112 0"] + st[1:],
        "deletion-then-use": st[:1] + ["112 d 112 0"] + st[1:],
        "deletion-line-id-small": ["5 d 999 0"] + st,
        "two-empty-clauses": st + [f"{last + 1} 0 {last} 0"],
        "whitespace-variants": ["  " + st[0].replace(" ", "\t") + "  "] + st[1:],
        "tab-separated": [st[0].replace(" ", "\t")] + st[1:],
        "plus-sign-literal": [st[0].replace("-7", "-7").replace(" 1 ", " +1 ", 1)] + st[1:],
        "leading-zero-id": ["0112" + st[0][3:]] + st[1:],
        "unicode-digit": [st[0].replace("1", "\u0661", 1)] + st[1:],
        "underscore-in-number": ["1_12" + st[0][3:]] + st[1:],
        "unicode-space": [st[0].replace(" ", "\u2003")] + st[1:],
    }
    for tag, steps in hand.items():
        mutants.append((f"proof:hand-{tag}", "refutation-causal-m05-n3-r2",
                        _set(ref, ["proof", "steps"], [x.replace("\\t", "\t") for x in steps])))
    if not fast:
        big = load("lower-signed-any-denominator-causal-m64-n3")
        mutants.append(("base:committed", "lower-signed-any-denominator-causal-m64-n3", big))
        mutants.append(("lower:variant", "lower-signed-any-denominator-causal-m64-n3",
                        _set(big, ["variant"], "position-dependent")))
        mutants.append(("lower:claims/bound", "lower-signed-any-denominator-causal-m64-n3",
                        _set(big, ["claims", "bound"], big["claims"]["bound"] + 1)))
    return mutants


def campaign(fast=True, seed=20261202, sample=None, n_subprocess=0, bases=None, guard=True,
             progress=False):
    """Run the campaign; guard=False checks in-process (Limits with both guards off)."""
    GUARD[0] = guard
    mutants = build(fast, seed, bases)
    if sample is not None and sample < len(mutants):
        rng = random.Random(seed + 1)
        keep = [m for m in mutants if m[0] == "base:committed"]
        rest = [m for m in mutants if m[0] != "base:committed"]
        mutants = keep + rng.sample(rest, sample - len(keep))
    by_class = Counter(m[0].split(":")[0] + ":" + m[0].split(":")[1] for m in mutants)
    codes, oracle_counts = Counter(), Counter()
    false_accepts, false_rejects, crashes, scope, lenient = [], [], [], [], []
    slowest = (0.0, None)
    cache = {}
    for i, (cls, name, doc) in enumerate(mutants):
        if progress and i % 100 == 0:
            print(f"{i}/{len(mutants)} {time.strftime('%H:%M:%S')}", file=sys.stderr, flush=True)
        code, ok, ptr, why, secs = run_one(doc)
        codes[code] += 1
        try:
            ov, oreason = oracle_verdict(doc, cache)
        except Exception as e:  # an oracle bug: counted, never judged
            ov, oreason = "out-of-scope", f"oracle error {type(e).__name__}: {e}"[:200]
        oracle_counts[ov] += 1
        if secs > slowest[0]:
            slowest = (secs, f"{name} [{cls}]")
        if code in (4, -1):
            crashes.append((cls, name, code, why))
        if ov == "out-of-scope":
            scope.append((cls, name, oreason))
            continue
        if ok and ov != "valid":
            if cls in LENIENT:
                lenient.append((cls, name, oreason))
            else:
                false_accepts.append((cls, name, oreason))
        if not ok and ov == "valid":
            false_rejects.append((cls, name, code, ptr, why))
    sub = {"run": 0, "tracebacks": [], "exit_codes": Counter()}
    if n_subprocess:
        rng = random.Random(seed + 2)
        for cls, name, doc in rng.sample(mutants, min(n_subprocess, len(mutants))):
            rc, err = subprocess_check(doc)
            sub["run"] += 1
            sub["exit_codes"][rc] += 1
            if "Traceback" in err or rc == 4:
                sub["tracebacks"].append((cls, name, rc, err[-500:]))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "inputs": len(mutants), "by_class": dict(sorted(by_class.items())),
        "checker_codes": {str(k): v for k, v in sorted(codes.items())},
        "oracle": dict(oracle_counts), "false_accepts": false_accepts, "lenient_accepts": lenient,
        "false_rejects": false_rejects, "crashes": crashes, "out_of_scope": scope,
        "slowest": slowest, "peak_child_rss_kb": peak, "subprocess": sub,
    }


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--sample", type=int)
    ap.add_argument("--subprocess", type=int, default=0)
    ap.add_argument("--seed", type=int, default=20261202)
    a = ap.parse_args(argv)
    res = campaign(a.fast, a.seed, a.sample, a.subprocess, progress=True)
    print(json.dumps(res, indent=1, default=str))
    return 1 if res["false_accepts"] or res["crashes"] else 0


if __name__ == "__main__":
    sys.exit(main())
