"""Hostile campaign v3: kind `direct-sum`, kind `rank-extension`, `level-family` at m > 64, the
writers and input robustness.  Written from docs/ alone (certificate-format-v1/v2, cli.md,
index-format.md, soundness.md) and the committed files as seeds; judged by lab/spec_oracle_v3.py.

Every checker run records: exit code, the verdict line (one line), no traceback, the time.
A FALSE ACCEPT is a checker VALID (exit 0) on a mutant the oracle does not judge valid.
A CRASH is exit 4, an exception out of `kb.check`, a traceback or more than one line from the CLI.
A HANG is a run past its timeout.

`python lab/campaign_v3.py [--fast] [--seed S]` prints the counts (JSON).
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lab import spec_oracle_v3 as oracle  # noqa: E402

CERTS = ROOT / "certificates"
CORPUS = ROOT / "tests" / "corpus"
ATTACKS = ROOT / "lab" / "attacks_v3"
PY = sys.executable
CLI_TIMEOUT = 60
SLOW_SECONDS = 10.0

DS_FAST_SEEDS = ["lower-sum-position-independent-m048-n3", "lower-sum-signed-any-denominator-causal-m048-n3"]
DS_SEEDS = DS_FAST_SEEDS + ["lower-sum-signed-position-independent-m048-n3",
                            "lower-sum-signed-any-denominator-position-independent-m048-n4",
                            "lower-sum-position-independent-m056-n3"]
DS_QUOTA_FAST = 25  # mutants per seed in the fast sample
DS_QUOTA = {"lower-sum-position-independent-m048-n3": 80, "lower-sum-signed-any-denominator-causal-m048-n3": 40,
            "lower-sum-signed-position-independent-m048-n3": 20,
            "lower-sum-signed-any-denominator-position-independent-m048-n4": 20,
            "lower-sum-position-independent-m056-n3": 5}
DS_BIG_QUOTA = 8
# seeds with an RM(2,6) component: only the top-level fields are mutated (the component is recorded as the seed's)
DS_BIG_SEEDS = ["lower-sum-position-independent-m128-n3", "lower-sum-signed-any-denominator-causal-m256-n3"]


def load(name):
    return json.loads((CERTS / f"{name}.json").read_text())


def _kb():
    import kernelbounds as kb
    from kernelbounds.checker.limits import Limits
    return kb, Limits


class Run:
    """The results of a campaign: every input by class, exit code, oracle verdict."""

    def __init__(self):
        self.rows = []
        self.false_accepts = []
        self.false_rejects = []
        self.crashes = []
        self.hangs = []
        self.slow = []

    def add(self, cls, name, code, oracle_verdict, seconds, line="", extra=None):
        if os.environ.get("CAMPAIGN_V3_PROGRESS"):
            print(f"{len(self.rows)} {cls} {name[:80]!r} {code} {oracle_verdict} {seconds:.2f}", file=sys.stderr, flush=True)
        row = {"class": cls, "name": name, "code": code, "oracle": oracle_verdict, "seconds": round(seconds, 3),
               "line": line[:300]}
        if extra:
            row.update(extra)
        self.rows.append(row)
        if code == 0 and oracle_verdict not in ("valid", "valid-header", "n/a"):
            self.false_accepts.append(row)
        if oracle_verdict == "valid" and code in (1, 2):
            self.false_rejects.append(row)
        if code == 4 or code == "exception" or (extra or {}).get("traceback"):
            self.crashes.append(row)
        if code == "hang":
            self.hangs.append(row)
        if seconds > SLOW_SECONDS and code != "hang":
            self.slow.append(row)

    def summary(self):
        by_class = Counter(r["class"] for r in self.rows)
        codes = Counter(str(r["code"]) for r in self.rows)
        ov = Counter(r["oracle"] for r in self.rows)
        per_class = {c: dict(Counter(str(r["code"]) for r in self.rows if r["class"] == c)) for c in by_class}
        slowest = max(self.rows, key=lambda r: r["seconds"]) if self.rows else None
        return {"inputs": len(self.rows), "by_class": dict(sorted(by_class.items())), "codes": dict(sorted(codes.items())),
                "codes_by_class": per_class, "oracle": dict(sorted(ov.items())),
                "false_accepts": self.false_accepts, "false_rejects": self.false_rejects, "crashes": self.crashes,
                "hangs": self.hangs, "slow": self.slow,
                "slowest": slowest}


def check_doc(doc, guard=False):
    """kb.check in-process (guards off unless guard): (code, line, seconds)."""
    kb, Limits = _kb()
    t = time.perf_counter()
    try:
        v = kb.check(doc) if guard else kb.check(doc, Limits(time_limit=0, memory_limit=0))
    except BaseException as e:  # a crash of the public API is a finding
        return "exception", f"{type(e).__name__}: {e}"[:300], time.perf_counter() - t
    return int(v.code), f"{v.pointer}: {v.reason}", time.perf_counter() - t


def cli(args, stdin=None, timeout=CLI_TIMEOUT, cwd=None, env_extra=None, stdin_closed=False):
    """Run `python -m kernelbounds.cli ...` (the `kernelbounds` entry point): (code, stdout, stderr, seconds)."""
    env = dict(os.environ)
    env.pop("KERNELBOUNDS_DEBUG", None)
    if env_extra:
        env.update(env_extra)
    exe = str(Path(PY).parent / "kernelbounds")
    t = time.perf_counter()
    kw = {}
    if stdin_closed:
        kw["preexec_fn"] = lambda: os.close(0)
        stdin_arg = None
    else:
        stdin_arg = subprocess.PIPE if stdin is not None else subprocess.DEVNULL
    p = subprocess.Popen([exe] + list(args), stdin=stdin_arg, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=cwd, env=env, start_new_session=True, **kw)
    try:
        out, err = p.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.communicate()
        return "hang", "", "", time.perf_counter() - t
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.perf_counter() - t


def _one_line(out, err):
    text = (out + err).strip("\n")
    return text.count("\n") == 0, "Traceback" in out + err


# ====================================================================== 1. direct-sum

def _set(d, path, value):
    x = d
    for p in path[:-1]:
        x = x[p]
    x[path[-1]] = value


def _get(d, path):
    x = d
    for p in path:
        x = x[p]
    return x


def _leaves(x, path=()):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _leaves(v, path + (i,))
    else:
        yield path, x


def _repair(doc):
    """Set the claims to what the spec derives (the mutant then differs from a valid file only structurally)."""
    try:
        cl = oracle.true_claims(doc)
    except oracle.Reject:
        return doc
    except Exception:
        return doc
    for key in ("code_size", "bound", "min_product", "witness_inputs"):
        doc["claims"][key] = cl[key]
    return doc


def _orbit_words(comp, rep_index, rng, count=2):
    """Other words of one orbit of a small component (the oracle's closure), as tokens."""
    m = comp["m"]
    orb = comp["claims"]["orbits"][rep_index]
    rep = oracle._token(orb["representative"], m, "")
    perms = comp["symmetry"]["permutations"]
    out, x = [], rep
    for _ in range(count):
        x = oracle._perm_apply(perms[rng.randrange(len(perms))], x)
        out.append("".join("1" if x >> i & 1 else "0" for i in range(m)))
    return out


def ds_mutants(seed_doc, rng, big=False):
    """(subclass, name, doc) for one seed; big: only the top-level fields (its component is not enumerated here)."""
    out = []

    def mut(sub, name, f, repair=False):
        d = copy.deepcopy(seed_doc)
        try:
            r = f(d)
        except (IndexError, KeyError):
            return
        if isinstance(r, dict) and "format" in r:
            d = r
        if repair:
            d = _repair(d)
        out.append((sub, name, d))

    # claims off by one, every claim
    for key in ("bound", "k", "min_product", "witness_inputs", "code_size"):
        for delta in (-1, 1):
            mut("claims", f"{key}{delta:+d}", lambda d, key=key, delta=delta: d["claims"].__setitem__(key, d["claims"][key] + delta))
    mut("claims", "k=2 with its bound", lambda d: d["claims"].__setitem__("k", 2), repair=True)
    mut("claims", "k=3 with its bound", lambda d: d["claims"].__setitem__("k", 3), repair=True)
    mut("claims", "k=0", lambda d: d["claims"].__setitem__("k", 0))
    mut("claims", "k=-1", lambda d: d["claims"].__setitem__("k", -1))
    mut("claims", "k huge", lambda d: d["claims"].__setitem__("k", 10 ** 30))
    mut("claims", "bound huge", lambda d: d["claims"].__setitem__("bound", 2 ** 200))
    mut("claims", "bound 0", lambda d: d["claims"].__setitem__("bound", 0))
    mut("claims", "witness 0", lambda d: d["claims"].__setitem__("witness_inputs", 0))
    # header
    for n in (2, 3, 4, 8, 64, 65):
        mut("header", f"n={n} repaired", lambda d, n=n: d.__setitem__("n", n), repair=True)
        mut("header", f"n={n}", lambda d, n=n: d.__setitem__("n", n))
    for v in oracle.VARIANTS:
        mut("header", f"variant={v}", lambda d, v=v: d.__setitem__("variant", v))
        mut("header", f"variant={v} repaired", lambda d, v=v: d.__setitem__("variant", v), repair=True)
    for k in oracle.KERNELS + ("signed ", "Signed", None):
        def setk(d, k=k):
            if k is None:
                d.pop("kernel", None)
            else:
                d["kernel"] = k
        mut("header", f"kernel={k}", setk)
        mut("header", f"kernel={k} repaired", setk, repair=True)
    for mm in (-1, 0, 1, 2 ** 64, 4097):
        mut("header", f"m{mm:+d}", lambda d, mm=mm: d.__setitem__("m", d["m"] + mm if abs(mm) < 10 else mm))
    mut("header", "version 1", lambda d: d.__setitem__("version", 1))
    mut("header", "version 3", lambda d: d.__setitem__("version", 3))
    mut("header", "version true", lambda d: d.__setitem__("version", True))
    mut("header", "kind lower-bound", lambda d: d.__setitem__("kind", "lower-bound"))
    mut("header", "queries other", lambda d: d.__setitem__("queries", "identity"))
    mut("header", "witness rule prefix", lambda d: d.__setitem__("witness", {"rule": "chains-prefix-v1"}))
    mut("header", "witness inputs []", lambda d: d["witness"].__setitem__("inputs", []))
    mut("header", "unknown top field", lambda d: d.__setitem__("extra", 1))
    for key in ("m", "n", "variant", "schedules", "components", "claims", "witness", "queries"):
        mut("header", f"missing {key}", lambda d, key=key: d.pop(key))
    mut("header", "unknown claim", lambda d: d["claims"].__setitem__("orbits", []))
    # schedules
    sched = seed_doc["schedules"]
    for s in range(min(len(sched), 6)):
        mut("schedules", f"drop schedule {s}", lambda d, s=s: d["schedules"].pop(s))
        mut("schedules", f"drop schedule {s} repaired", lambda d, s=s: d["schedules"].pop(s), repair=True)
        mut("schedules", f"duplicate schedule {s}", lambda d, s=s: d["schedules"].insert(s, copy.deepcopy(d["schedules"][s])))
        mut("schedules", f"duplicate schedule {s} repaired", lambda d, s=s: d["schedules"].insert(s, copy.deepcopy(d["schedules"][s])), repair=True)

        def alt(d, s=s):
            e = d["schedules"][s]
            g = e["gap"]
            e["levels"] = [0, g]
            return d
        mut("schedules", f"schedule {s} one link repaired (a weaker but valid schedule)", alt, repair=True)

        def dup_other(d, s=s):
            # a second, better-looking schedule for the same gap, the claims derived from the first one
            e = copy.deepcopy(d["schedules"][s])
            g = e["gap"]
            e["levels"] = [0, g] if e["levels"] != [0, g] else ([0, 2, g] if g >= 4 else [0, g])
            d["schedules"].append(e)
            return d
        mut("schedules", f"second schedule for gap of {s}", dup_other)

        def link1(d, s=s):
            e = d["schedules"][s]
            g = e["gap"]
            e["levels"] = [0, 1, g]
        mut("schedules", f"schedule {s} link 1", link1)
        mut("schedules", f"schedule {s} reversed", lambda d, s=s: d["schedules"][s]["levels"].reverse())
        mut("schedules", f"schedule {s} levels end short", lambda d, s=s: d["schedules"][s]["levels"].__setitem__(-1, d["schedules"][s]["gap"] - 1))
        mut("schedules", f"schedule {s} levels start 1", lambda d, s=s: d["schedules"][s]["levels"].__setitem__(0, 1))
    mut("schedules", "extra gap 2", lambda d: d["schedules"].insert(0, {"gap": 2, "levels": [0, 2]}))
    mut("schedules", "extra gap 999", lambda d: d["schedules"].append({"gap": 999, "levels": [0, 999]}))
    mut("schedules", "schedules reversed order", lambda d: d["schedules"].reverse())
    mut("schedules", "schedules shuffled repaired", lambda d: rng.shuffle(d["schedules"]), repair=True)
    mut("schedules", "schedules empty", lambda d: d.__setitem__("schedules", []))
    mut("schedules", "levels huge", lambda d: d["schedules"][0].__setitem__("levels", [0] + [2 * i for i in range(1, 1000)] + [10 ** 6]))
    # components
    mut("components", "component list empty", lambda d: d.__setitem__("components", []))
    mut("components", "17 components", lambda d: d.__setitem__("components", [copy.deepcopy(d["components"][0]) for _ in range(17)]))
    mut("components", "copies+1", lambda d: d["components"][0].__setitem__("copies", d["components"][0]["copies"] + 1))

    def copies_and_m(d, delta):
        c = d["components"][0]
        c["copies"] += delta
        d["m"] += delta * c["m"]
    mut("components", "copies+1 with m repaired", lambda d: copies_and_m(d, 1), repair=True)
    mut("components", "copies-1 with m repaired", lambda d: copies_and_m(d, -1), repair=True)
    mut("components", "copies 0", lambda d: d["components"][0].__setitem__("copies", 0))
    mut("components", "copies 65", lambda d: d["components"][0].__setitem__("copies", 65))
    mut("components", "copies 64 with m", lambda d: (d["components"][0].__setitem__("copies", 64), d.__setitem__("m", 64 * d["components"][0]["m"] + sum(c["m"] * c["copies"] for c in d["components"][1:]))))
    mut("components", "copies true", lambda d: d["components"][0].__setitem__("copies", True))

    def split_copies(d, tweak=None):
        """One copy of component 0 listed as a second component (DS1: invalid unless it differs)."""
        c = d["components"][0]
        if c["copies"] < 2:
            raise IndexError
        c2 = copy.deepcopy(c)
        c["copies"] -= 1
        c2["copies"] = 1
        if tweak:
            tweak(c2)
        d["components"].append(c2)
    mut("components", "copies split into two equal components", split_copies)
    mut("components", "copies split into two equal components repaired", split_copies, repair=True)
    mut("components", "copies split, renamed code (equal up to the name)",
        lambda d: split_copies(d, lambda c2: c2["code"].__setitem__("name", "another-name")), repair=True)

    def reorder_perms(c2):
        if len(c2["symmetry"]["permutations"]) < 2:
            raise IndexError
        c2["symmetry"]["permutations"].reverse()
    mut("components", "copies split, permutations reordered (same group)", lambda d: split_copies(d, reorder_perms), repair=True)
    mut("components", "components reversed repaired", lambda d: d["components"].reverse(), repair=True)
    mut("components", "components reversed", lambda d: d["components"].reverse())
    mut("components", "component m+1", lambda d: d["components"][0].__setitem__("m", d["components"][0]["m"] + 1))
    mut("components", "component unknown field", lambda d: d["components"][0].__setitem__("x", 0))
    mut("components", "component missing claims", lambda d: d["components"][0].pop("claims"))
    if not big:
        comp0 = seed_doc["components"][0]
        norb = len(comp0["claims"]["orbits"])
        for o in range(norb):
            base = ("components", 0, "claims", "orbits", o)
            mut("orbits", f"orbit {o} size+1", lambda d, b=base: _set(d, b + ("size",), _get(d, b + ("size",)) + 1))
            mut("orbits", f"orbit {o} size-1", lambda d, b=base: _set(d, b + ("size",), _get(d, b + ("size",)) - 1))
            mut("orbits", f"orbit {o} size+1 repaired", lambda d, b=base: _set(d, b + ("size",), _get(d, b + ("size",)) + 1), repair=True)
            mut("orbits", f"orbit {o} count+1", lambda d, b=base: _set(d, b + ("gaps", 0, "count"), _get(d, b + ("gaps", 0, "count")) + 1))
            mut("orbits", f"orbit {o} count+1 repaired", lambda d, b=base: _set(d, b + ("gaps", 0, "count"), _get(d, b + ("gaps", 0, "count")) + 1), repair=True)

            def move_count(d, b=base):
                g = _get(d, b + ("gaps",))
                g[0]["count"] += 1
                g[-1]["count"] -= 1
            mut("orbits", f"orbit {o} count moved between gaps (row total kept) repaired", move_count, repair=True)
            mut("orbits", f"orbit {o} gap dropped", lambda d, b=base: _get(d, b + ("gaps",)).pop())
            mut("orbits", f"orbit {o} gap dropped repaired", lambda d, b=base: _get(d, b + ("gaps",)).pop(), repair=True)
            mut("orbits", f"orbit {o} gaps reversed", lambda d, b=base: _get(d, b + ("gaps",)).reverse())
            mut("orbits", f"orbit {o} gap duplicated", lambda d, b=base: _get(d, b + ("gaps",)).insert(0, copy.deepcopy(_get(d, b + ("gaps", 0)))))
            mut("orbits", f"orbit {o} gap split in two entries", lambda d, b=base: _split_gap(_get(d, b + ("gaps",))), repair=True)
            mut("orbits", f"orbit {o} extra gap 1 count 0", lambda d, b=base: _get(d, b + ("gaps",)).insert(0, {"gap": 1, "count": 0}))
            mut("orbits", f"orbit {o} extra gap 999 count 0 repaired", lambda d, b=base: _get(d, b + ("gaps",)).append({"gap": 999, "count": 0}), repair=True)
            mut("orbits", f"orbit {o} duplicated", lambda d, o=o: d["components"][0]["claims"]["orbits"].insert(o, copy.deepcopy(d["components"][0]["claims"]["orbits"][o])))
            mut("orbits", f"orbit {o} duplicated repaired", lambda d, o=o: d["components"][0]["claims"]["orbits"].insert(o, copy.deepcopy(d["components"][0]["claims"]["orbits"][o])), repair=True)
            mut("orbits", f"orbit {o} removed repaired", lambda d, o=o: d["components"][0]["claims"]["orbits"].pop(o), repair=True)
            mut("orbits", f"orbit {o} removed", lambda d, o=o: d["components"][0]["claims"]["orbits"].pop(o))
            for t, w in enumerate(_orbit_words(comp0, o, rng, 2)):
                mut("orbits", f"orbit {o} other representative {t} (same orbit)", lambda d, b=base, w=w: _set(d, b + ("representative",), w))
            rep = comp0["claims"]["orbits"][o]["representative"]
            flipped = rep[:-1] + ("1" if rep[-1] == "0" else "0")
            mut("orbits", f"orbit {o} representative not a word", lambda d, b=base, w=flipped: _set(d, b + ("representative",), w))
            swapped = rep[1] + rep[0] + rep[2:] if rep[0] != rep[1] else rep[::-1]
            mut("orbits", f"orbit {o} representative bits swapped", lambda d, b=base, w=swapped: _set(d, b + ("representative",), w))
            mut("orbits", f"orbit {o} representative upper-case/short", lambda d, b=base, w=rep[:-1]: _set(d, b + ("representative",), w))
        if norb >= 2:
            def merge(d):
                orbs = d["components"][0]["claims"]["orbits"]
                orbs[0]["size"] += orbs[1]["size"]
                orbs.pop(1)
            mut("orbits", "orbits 0+1 merged repaired", merge, repair=True)
            mut("orbits", "orbits reordered", lambda d: d["components"][0]["claims"]["orbits"].reverse())
            mut("orbits", "orbits reordered repaired", lambda d: d["components"][0]["claims"]["orbits"].reverse(), repair=True)

            def rep_from_other(d):
                orbs = d["components"][0]["claims"]["orbits"]
                orbs[1]["representative"] = _orbit_words(d["components"][0], 0, rng, 1)[0]
            mut("orbits", "orbit 1 representative inside orbit 0", rep_from_other, repair=True)
        perms = comp0["symmetry"]["permutations"]
        m_c = comp0["m"]
        for p in range(len(perms)):
            sp = ("components", 0, "symmetry", "permutations", p)
            mut("symmetry", f"perm {p} identity", lambda d, sp=sp: _set(d, sp, list(range(m_c))))
            mut("symmetry", f"perm {p} identity repaired", lambda d, sp=sp: _set(d, sp, list(range(m_c))), repair=True)
            mut("symmetry", f"perm {p} removed repaired", lambda d, p=p: d["components"][0]["symmetry"]["permutations"].pop(p), repair=True)
            mut("symmetry", f"perm {p} duplicated repaired", lambda d, p=p: d["components"][0]["symmetry"]["permutations"].append(list(d["components"][0]["symmetry"]["permutations"][p])), repair=True)

            def swap2(d, sp=sp):
                q = _get(d, sp)
                q[0], q[1] = q[1], q[0]
            mut("symmetry", f"perm {p} two entries swapped", swap2)
            mut("symmetry", f"perm {p} repeated entry", lambda d, sp=sp: _get(d, sp).__setitem__(0, _get(d, sp)[1]))
            mut("symmetry", f"perm {p} out of range", lambda d, sp=sp: _get(d, sp).__setitem__(0, m_c))
            mut("symmetry", f"perm {p} negative", lambda d, sp=sp: _get(d, sp).__setitem__(0, -1))
            mut("symmetry", f"perm {p} short", lambda d, sp=sp: _get(d, sp).pop())
            mut("symmetry", f"perm {p} inverse repaired", lambda d, sp=sp: _set(d, sp, _inverse(_get(d, sp))), repair=True)
            mut("symmetry", f"perm {p} squared repaired", lambda d, sp=sp: _set(d, sp, [_get(d, sp)[i] for i in _get(d, sp)]), repair=True)
        mut("symmetry", "65 permutations", lambda d: d["components"][0]["symmetry"].__setitem__("permutations", [list(range(m_c))] * 65))
        mut("symmetry", "no permutation", lambda d: d["components"][0]["symmetry"].__setitem__("permutations", []))
        code = comp0["code"]
        if "linear" in code:
            gens = code["linear"]["generator"]
            mut("code", "weight+2", lambda d: d["components"][0]["code"]["linear"].__setitem__("weight", code["linear"]["weight"] + 2))
            mut("code", "weight+2 repaired", lambda d: d["components"][0]["code"]["linear"].__setitem__("weight", code["linear"]["weight"] + 2), repair=True)
            mut("code", "generator row dropped", lambda d: d["components"][0]["code"]["linear"]["generator"].pop())
            mut("code", "generator row dropped repaired", lambda d: d["components"][0]["code"]["linear"]["generator"].pop(), repair=True)
            mut("code", "generator row duplicated", lambda d: d["components"][0]["code"]["linear"]["generator"].append(gens[0]))
            mut("code", "generator row bit flipped", lambda d: d["components"][0]["code"]["linear"]["generator"].__setitem__(0, _flip(gens[0], 0)))
            mut("code", "generator row replaced by the sum of two rows (same code) repaired", lambda d: d["components"][0]["code"]["linear"]["generator"].__setitem__(0, _xor(gens[0], gens[1])), repair=True)
            mut("code", "generator rows reversed repaired", lambda d: d["components"][0]["code"]["linear"]["generator"].reverse(), repair=True)
            mut("code", "generator as listed words", lambda d: d["components"][0].__setitem__("code", {"words": gens}))
            mut("code", "code name changed", lambda d: d["components"][0]["code"].__setitem__("name", "x\u001b[31m\n"))
            mut("code", "code both words and linear", lambda d: d["components"][0]["code"].__setitem__("words", gens))
        else:
            mut("code", "listed word dropped", lambda d: d["components"][0]["code"]["words"].pop())
            mut("code", "listed word duplicated", lambda d: d["components"][0]["code"]["words"].append(d["components"][0]["code"]["words"][0]))
    # type confusion on sampled leaves
    leaves = list(_leaves(seed_doc))
    picks = rng.sample(leaves, min(20, len(leaves)))
    for path, val in picks:
        for rep in ("1", 1.0, True, None, [], {}, -1, 2 ** 70):
            if type(rep) is type(val) and rep == val:
                continue
            mut("type", f"{'/'.join(map(str, path))} := {rep!r}", lambda d, path=path, rep=rep: _set(d, path, copy.deepcopy(rep)))
    return out


def _split_gap(gaps):
    g = gaps[0]
    if g["count"] < 2:
        raise IndexError
    c = g["count"]
    g["count"] = c // 2
    gaps.insert(1, {"gap": g["gap"], "count": c - c // 2})


def _inverse(p):
    q = [0] * len(p)
    for i, v in enumerate(p):
        q[v] = i
    return q


def _flip(tok, i):
    return tok[:i] + ("1" if tok[i] == "0" else "0") + tok[i + 1:]


def _xor(a, b):
    return "".join("1" if x != y else "0" for x, y in zip(a, b, strict=True))


def ds_limit_mutants(seed_doc):
    """Limits: many orbits, many copies, huge m (all must be refused quickly, exit 3 or a rejection)."""
    out = []
    d = copy.deepcopy(seed_doc)
    d["components"][0]["copies"] = 64
    d["m"] = 64 * d["components"][0]["m"]
    out.append(("limits", "64 copies (T = C(K+63, 64))", d))
    d = copy.deepcopy(seed_doc)
    orbs = d["components"][0]["claims"]["orbits"]
    d["components"][0]["claims"]["orbits"] = [copy.deepcopy(orbs[i % len(orbs)]) for i in range(5000)]
    out.append(("limits", "5000 claimed orbits", d))
    d = copy.deepcopy(seed_doc)
    c = d["components"][0]
    d["components"] = []
    for t in range(16):
        c2 = copy.deepcopy(c)
        c2["copies"] = 64
        c2["code"]["name"] = f"copy{t}"
        c2["symmetry"]["permutations"] = c2["symmetry"]["permutations"][t % len(c2["symmetry"]["permutations"]):] + \
            c2["symmetry"]["permutations"][:t % len(c2["symmetry"]["permutations"])] + [list(range(c["m"]))] * t
        d["components"].append(c2)
    d["m"] = 16 * 64 * c["m"]
    out.append(("limits", "16 components x 64 copies, m huge", d))
    d = copy.deepcopy(seed_doc)
    d["m"] = 10 ** 100
    out.append(("limits", "m = 10^100", d))
    d = copy.deepcopy(seed_doc)
    d["schedules"] = d["schedules"] * 2000
    out.append(("limits", "schedules x2000", d))
    return out


def run_direct_sum(run, rng, fast, big=False):
    seeds = DS_FAST_SEEDS if fast else DS_SEEDS
    for name in seeds:
        seed = load(name)
        v = oracle.judge_direct_sum(seed)
        code, line, sec = check_doc(seed)
        run.add("direct-sum/seed", name, code, v[0], sec, line)
        muts = ds_mutants(seed, rng) + ds_limit_mutants(seed)
        quota = DS_QUOTA_FAST if fast else DS_QUOTA.get(name, len(muts))
        if quota < len(muts):
            muts = [muts[i] for i in sorted(rng.sample(range(len(muts)), quota))]
        for sub, mname, doc in muts:
            ov = oracle.judge_direct_sum(doc)
            code, line, sec = check_doc(doc)
            run.add(f"direct-sum/{sub}", f"{name}: {mname}", code, ov[0], sec, line, {"oracle_reason": ov[1]})
    if big:
        for name in DS_BIG_SEEDS:
            seed = load(name)
            oracle.remember_seed(seed)
            v = oracle.judge_direct_sum(seed)
            code, line, sec = check_doc(seed)
            run.add("direct-sum/seed", name, code, v[0], sec, line)
            muts = ds_mutants(seed, rng, big=True)
            muts = [x for x in muts if x[0] in ("claims", "header", "schedules")]
            for sub, mname, doc in rng.sample(muts, min(DS_BIG_QUOTA, len(muts))):
                ov = oracle.judge_direct_sum(doc)
                code, line, sec = check_doc(doc)
                run.add(f"direct-sum/{sub}", f"{name}: {mname}", code, ov[0], sec, line, {"oracle_reason": ov[1]})


# ====================================================================== 2. rank-extension

def _sha(b):
    return hashlib.sha256(b).hexdigest()


def run_rank_extension(run, rng, fast, tmp):
    seeds = ["extension-causal-m10-n3-r5"] if fast else ["extension-causal-m10-n3-r5", "extension-position-dependent-m20-n3-r10",
                                                         "extension-causal-m08-n5-r4"]
    for name in seeds:
        _re_seed(run, rng, fast, tmp, name)


def _re_seed(run, rng, fast, tmp, name):
    seed = load(name)
    base_path = CERTS / seed["base"]["name"]
    base_bytes = base_path.read_bytes()
    base = json.loads(base_bytes)
    folder = Path(tmp) / f"re-{name}"
    folder.mkdir()
    (folder / base_path.name).write_bytes(base_bytes)
    other_names = {"refutation-position-dependent-m06-n3-r3", "refutation-causal-m06-n4-r3", "refutation-position-independent-m05-n3-r2",
                   "lower-sum-position-independent-m048-n3", "extension-causal-m10-n3-r5"}
    other = {}
    for o in sorted(other_names):
        b = (CERTS / f"{o}.json").read_bytes()
        (folder / f"{o}.json").write_bytes(b)
        other[o] = (_sha(b), json.loads(b))
    bad_base = copy.deepcopy(base)
    bad_base["claims"]["bound"] += 1
    bb = json.dumps(bad_base, sort_keys=True, indent=1).encode() + b"\n"
    (folder / "zz-bad-base.json").write_bytes(bb)
    base_info = base
    muts = []

    def mut(sub, mname, f, count_kept=True):
        d = copy.deepcopy(seed)
        f(d)
        muts.append((sub, mname, d, count_kept))

    j = len(seed["edges"])
    m0 = base["m"]
    for key in ("rank", "bound", "witness_inputs"):
        for delta in (-1, 1):
            mut("claims", f"{key}{delta:+d}", lambda d, key=key, delta=delta: d["claims"].__setitem__(key, d["claims"][key] + delta), False)
    mut("claims", "rank+1 bound+1", lambda d: (d["claims"].__setitem__("rank", d["claims"]["rank"] + 1), d["claims"].__setitem__("bound", d["claims"]["bound"] + 1)))
    mut("base", "sha256 upper-case", lambda d: d["base"].__setitem__("sha256", d["base"]["sha256"].upper()))
    mut("base", "sha256 one digit changed", lambda d: d["base"].__setitem__("sha256", ("0" if d["base"]["sha256"][0] != "0" else "1") + d["base"]["sha256"][1:]))
    mut("base", "sha256 63 digits", lambda d: d["base"].__setitem__("sha256", d["base"]["sha256"][:-1]))
    mut("base", "sha256 of a rejected base in the folder", lambda d: d["base"].__setitem__("sha256", _sha(bb)))
    for o, (sha, odoc) in other.items():
        mut("base", f"sha256 of {o}", lambda d, sha=sha: d["base"].__setitem__("sha256", sha))
        if odoc.get("kind") == "rank-refutation":
            def retarget(d, odoc=odoc, sha=sha):
                d["base"]["sha256"] = sha
                jj = len(d["edges"])
                d["m"] = odoc["m"] + 2 * jj
                d["edges"] = [[odoc["m"] + 2 * i, odoc["m"] + 2 * i + 1] for i in range(jj)]
                d["n"], d["variant"], d["kernel"] = odoc["n"], odoc["variant"], odoc["kernel"]
                d["claims"]["rank"] = odoc["rank"] + jj
                d["claims"]["bound"] = odoc["rank"] + jj + 1
            mut("base", f"retargeted to {o} (witness count kept)", retarget, False)
    for hint in ("../" + base_path.name, "/etc/passwd", str(base_path), "a/b.json", "", "x" * 201, "a\nb", "..", "nul\u0000",
                 "extension-causal-m10-n3-r5.json"):
        mut("base", f"name hint {hint[:20]!r}", lambda d, hint=hint: d["base"].__setitem__("name", hint))
    mut("base", "name missing (search the folder)", lambda d: d["base"].pop("name"))
    mut("base", "name of another file in the folder", lambda d: d["base"].__setitem__("name", "zz-bad-base.json"))
    mut("base", "base unknown field", lambda d: d["base"].__setitem__("path", "/"))
    mut("edges", "edges reversed (same set)", lambda d: d["edges"].reverse())
    if j >= 2:
        mut("edges", "edges re-paired over the same coordinates", lambda d: d.__setitem__("edges", [[m0 + 0, m0 + 2], [m0 + 1, m0 + 3]] + d["edges"][2:]))
    mut("edges", "edge u > v", lambda d: d["edges"][0].reverse())
    mut("edges", "edge u == v", lambda d: d["edges"][0].__setitem__(1, d["edges"][0][0]))
    mut("edges", "edge touches the base", lambda d: d["edges"][0].__setitem__(0, m0 - 1))
    mut("edges", "edge at coordinate m", lambda d: d["edges"][-1].__setitem__(1, d["m"]))
    mut("edges", "edge negative", lambda d: d["edges"][0].__setitem__(0, -1))
    mut("edges", "edge huge", lambda d: d["edges"][0].__setitem__(1, 2 ** 70))
    mut("edges", "edge float", lambda d: d["edges"][0].__setitem__(1, float(d["edges"][0][1])))
    mut("edges", "edge bool", lambda d: d["edges"][0].__setitem__(0, True))
    mut("edges", "edge of 3", lambda d: d["edges"][0].append(d["m"] - 1))
    mut("edges", "edge duplicated", lambda d: (d["edges"].append(list(d["edges"][0])), d.__setitem__("m", d["m"] + 2),
                                               d["claims"].__setitem__("rank", d["claims"]["rank"] + 1), d["claims"].__setitem__("bound", d["claims"]["bound"] + 1)))
    mut("edges", "edges overlapping", lambda d: d["edges"].__setitem__(-1, [d["edges"][0][1], d["edges"][-1][1]]) if len(d["edges"]) > 1 else d["edges"].append([d["edges"][0][1], d["m"] - 1]))
    mut("edges", "no edges, m = m0", lambda d: (d.__setitem__("edges", []), d.__setitem__("m", m0), d["claims"].__setitem__("rank", base["rank"]),
                                               d["claims"].__setitem__("bound", base["rank"] + 1)))

    def add_edge(d):
        d["edges"].append([d["m"], d["m"] + 1])
        d["m"] += 2
        d["claims"]["rank"] += 1
        d["claims"]["bound"] += 1
    mut("edges", "one more edge (witness count kept)", add_edge, False)

    def many(d, k):
        d["edges"] = [[m0 + 2 * i, m0 + 2 * i + 1] for i in range(k)]
        d["m"] = m0 + 2 * k
        d["claims"]["rank"] = base["rank"] + k
        d["claims"]["bound"] = base["rank"] + k + 1
    mut("edges", "25 edges", lambda d: many(d, 25), False)
    mut("edges", "24 edges (m > 64)", lambda d: many(d, 24), False)
    mut("edges", "29 edges m = 64", lambda d: many(d, 29), False)
    for field, val in (("n", base["n"] + 1), ("variant", "position-independent"), ("kernel", "nonnegative"), ("kernel", "signed-any-denominator"),
                       ("m", seed["m"] + 1), ("m", seed["m"] - 2), ("version", 1), ("kind", "rank-refutation")):
        mut("header", f"{field}={val}", lambda d, field=field, val=val: d.__setitem__(field, val))
    for path, _val in list(_leaves(seed)):
        for rep in ("1", None, [], 1.5):
            mut("type", f"{'/'.join(map(str, path))} := {rep!r}", lambda d, path=path, rep=rep: _set(d, path, rep))
    quota = 12 if fast else 30
    if quota < len(muts):
        muts = [muts[i] for i in sorted(rng.sample(range(len(muts)), quota))]
    seed_v = oracle.judge_rank_extension(seed, base_info, True, seed["base"]["sha256"])
    code, line, sec = _check_path(folder / "seed.json", seed)
    run.add("rank-extension/seed", name, code, "valid" if seed_v[0] == "valid-header" else seed_v[0], sec, line)
    for i, (sub, mname, d, count_kept) in enumerate(muts):
        sha = d["base"]["sha256"] if isinstance(d.get("base"), dict) else None
        if sha == seed["base"]["sha256"]:
            binfo, bvalid = base_info, True
        elif sha == _sha(bb):
            binfo, bvalid = base_info, False
        else:
            hit = [odoc for (s, odoc) in other.values() if s == sha]
            if hit:
                binfo = hit[0]
                bvalid = True
            else:
                binfo, bvalid = None, False
        ov = oracle.judge_rank_extension(d, binfo, bvalid, sha)
        verdict = ov[0]
        if verdict == "valid-header":
            verdict = "valid" if (count_kept and d["claims"]["witness_inputs"] == seed["claims"]["witness_inputs"]) else (
                "unknown-count" if not count_kept else "invalid")
        code, line, sec = _check_path(folder / f"mut-{i:04d}.json", d)
        run.add(f"rank-extension/{sub}", f"{name}: {mname}", code, verdict, sec, line, {"oracle_reason": ov[1]})


def _check_path(path, doc):
    path.write_text(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    kb, Limits = _kb()
    t = time.perf_counter()
    try:
        v = kb.check(str(path), Limits(time_limit=0, memory_limit=0))
    except BaseException as e:
        return "exception", f"{type(e).__name__}: {e}"[:300], time.perf_counter() - t
    finally:
        path.unlink()
    return int(v.code), f"{v.pointer}: {v.reason}", time.perf_counter() - t


def run_rank_extension_cli(run, tmp, fast):
    """Folder attacks through `kernelbounds check`: symlinked bases, a FIFO / device / huge file among the candidates."""
    seed_name = "extension-causal-m10-n3-r5"
    seed = load(seed_name)
    base_name = seed["base"]["name"]
    base_bytes = (CERTS / base_name).read_bytes()
    cases = []
    # 1. base as a symlink in the folder
    f = Path(tmp) / "cli-symlink"
    f.mkdir()
    (f / "store").mkdir()
    (f / "store" / base_name).write_bytes(base_bytes)
    os.symlink(f / "store" / base_name, f / base_name)
    shutil.copy(CERTS / f"{seed_name}.json", f / "ext.json")
    cases.append(("base is a symlink to the base", [str(f / "ext.json")], "n/a"))
    # 2. a FIFO named *.json in the folder, and the base missing (the search reads every *.json)
    f = Path(tmp) / "cli-fifo"
    f.mkdir()
    os.mkfifo(f / "aaa.json")
    d = copy.deepcopy(seed)
    d["base"]["sha256"] = "0" * 64
    d["base"]["name"] = "aaa.json"
    (f / "ext.json").write_text(json.dumps(d))
    cases.append(("a FIFO among the candidates (hinted), base missing", [str(f / "ext.json")], "invalid"))
    # 3. a symlink to /dev/zero named *.json, base missing
    f = Path(tmp) / "cli-devzero"
    f.mkdir()
    os.symlink("/dev/zero", f / "aaa.json")
    (f / "ext.json").write_text(json.dumps(d))
    cases.append(("/dev/zero symlink among the candidates, base missing", [str(f / "ext.json")], "invalid"))
    # 4. a 200 MB sparse *.json candidate, base missing
    if not fast:
        f = Path(tmp) / "cli-huge"
        f.mkdir()
        with open(f / "aaa.json", "wb") as h:
            h.truncate(200 * 2 ** 20)
        (f / "ext.json").write_text(json.dumps(d))
        cases.append(("a 200 MB candidate, base missing", [str(f / "ext.json")], "invalid"))
    # 5. --base naming a directory, a FIFO, a missing file, the wrong file
    f = Path(tmp) / "cli-basearg"
    f.mkdir()
    (f / "ext.json").write_text(json.dumps(seed))
    (f / "b").mkdir()
    os.mkfifo(f / "fifo")
    cases.append(("--base a directory (base not in folder)", ["--base", str(f / "b"), str(f / "ext.json")], "n/a"))
    cases.append(("--base a FIFO (base not in folder)", ["--base", str(f / "fifo"), str(f / "ext.json")], "n/a"))
    cases.append(("--base missing file", ["--base", str(f / "nope.json"), str(f / "ext.json")], "n/a"))
    cases.append(("--base the real base", ["--base", str(CERTS / base_name), str(f / "ext.json")], "valid"))
    # 6. extension whose base is an extension (a chain), in one folder
    f = Path(tmp) / "cli-chain"
    f.mkdir()
    shutil.copy(CERTS / f"{seed_name}.json", f / "inner.json")
    d2 = copy.deepcopy(seed)
    d2["base"] = {"sha256": _sha((CERTS / f"{seed_name}.json").read_bytes()), "name": "inner.json"}
    d2["edges"] = [[10, 11]]
    d2["m"] = 12
    d2["claims"]["rank"] = 6
    d2["claims"]["bound"] = 7
    (f / "outer.json").write_text(json.dumps(d2))
    shutil.copy(CERTS / base_name, f / base_name)
    cases.append(("base of kind rank-extension (a chain)", [str(f / "outer.json")], "invalid"))
    # 7. the certificate from standard input (no folder): the hinted name among the shipped certificates
    cases.append(("extension from stdin", ["-"], "valid"))
    if fast:
        cases = cases[1:2]
    for cname, args, expect in cases:
        stdin = (CERTS / f"{seed_name}.json").read_bytes() if args == ["-"] else None
        code, out, err, sec = cli(["check"] + args, stdin=stdin, timeout=30)
        one, tb = _one_line(out, err)
        run.add("rank-extension/cli", cname, code, expect, sec, (out + err).strip()[:300], {"traceback": tb, "one_line": one})


# ====================================================================== 3. level-family at m > 64

def lf_true_claims(m, n, g, eps):
    """LF1, LF3x, LF5 for basis complement / affine readout from the spec: (worst_error or None, feature_rank, support)."""
    from math import comb
    H = [sum(gj * comb(x, j) for j, gj in enumerate(g)) for x in range(m + 1)]
    if any(h <= 0 for h in H):
        return None, None, None
    g0 = g[0]
    best_hi = best_lo = None
    for X in range(m + 1):
        for u in range(X + 1):
            N = g0 * X + (n - 2) * (X - u) * H[u]
            D = g0 + H[X] + (n - 2) * H[u]
            v = Fraction(N) / D
            best_hi = v if best_hi is None or v > best_hi else best_hi
            best_lo = v if best_lo is None or v < best_lo else best_lo
    Ep = best_hi - Fraction(1, 2) + eps
    Em = best_lo - Fraction(1, 2) + eps
    worst = max(abs(Ep), abs(Em))
    support = [j for j, gj in enumerate(g) if gj != 0]
    return (worst if worst < Fraction(1, 2) else None), sum(comb(m, j) for j in support), support


def run_level_family(run, rng, fast):
    seeds = ["upper-nonnegative-m64-n3"] if fast else ["upper-nonnegative-m64-n3", "upper-any-m64-n3", "upper-nonnegative-m64-n5"]
    targets = (65,) if fast else (65, 128)
    for name in seeds:
        seed = load(name)
        code, line, sec = check_doc(seed)
        run.add("level-family/seed", name, code, "n/a", sec, line)
        g64 = [Fraction(x) for x in seed["differences"]]
        eps = Fraction(seed["readout"]["eps"])
        for m in targets:
            g = g64 + [Fraction(0)] * (m - 64)
            worst, fr, support = lf_true_claims(m, seed["n"], g, eps)
            d = copy.deepcopy(seed)
            d["m"] = m
            d["differences"] = [str(x) for x in g]
            if worst is None:
                d["claims"]["feature_rank"] = d["claims"]["kernel_rank"] = fr or 1
                run_one = [("padded (the oracle: fails LF1/LF3x)", d, "invalid")]
            else:
                d["claims"].update({"worst_error": str(worst), "feature_rank": fr, "kernel_rank": fr, "support": support})
                run_one = [("padded, claims from the oracle", d, "valid")]
                for key, delta in (("feature_rank", 1), ("kernel_rank", -1)):
                    e = copy.deepcopy(d)
                    e["claims"][key] += delta
                    run_one.append((f"{key}{delta:+d}", e, "invalid"))
                e = copy.deepcopy(d)
                e["claims"]["worst_error"] = str(worst + Fraction(1, 10 ** 30))
                run_one.append(("worst_error + 1e-30", e, "invalid"))
                e = copy.deepcopy(d)
                e["claims"]["worst_error"] = str(worst - Fraction(1, 10 ** 30))
                run_one.append(("worst_error - 1e-30", e, "invalid"))
                e = copy.deepcopy(d)
                e["claims"]["nonnegative_features"] = True
                run_one.append(("nonnegative_features true", e, "valid" if all(x >= 0 for x in g) else "invalid"))
                e = copy.deepcopy(d)
                e["differences"][-1] = "-1/1000000"
                run_one.append(("g_m = -1/10^6 (claims kept)", e, "invalid"))
                e = copy.deepcopy(d)
                e["differences"] = e["differences"][:-1]
                run_one.append(("m differences (one short)", e, "invalid"))
                e = copy.deepcopy(d)
                e["readout"]["eps"] = "1"
                run_one.append(("eps = 1", e, "invalid"))
            for mname, doc, expect in run_one:
                code, line, sec = check_doc(doc)
                run.add("level-family/m>64", f"{name} -> m={m}: {mname}", code, expect, sec, line)


# ====================================================================== 4. writers

WRITERS = [
    ("construct -o", ["construct", "tensor", "--m", "2", "--n", "3", "-o"]),
    ("transcript -o", ["transcript", "--q", "2", "--s", "2", "-o"]),
    ("bound -o", ["bound", "--m", "8", "--n", "3", "-o"]),
    ("bound --upper-output", ["bound", "--m", "8", "--n", "3", "--upper-output"]),
    ("rank -o", ["rank", "--kernel", "tensor", "--m", "3", "-o"]),
]


def run_writers(run, tmp, fast):
    base = Path(tmp) / "writers"
    base.mkdir()
    key = ("a directory", "/dev/full", "symlink to existing file")
    fast_targets = ("a directory", "/dev/full", "FIFO without a reader")

    def targets():
        yield "new file", lambda d: d / "new.json", "written"
        yield "existing file", lambda d: _touch(d / "old.json", b"OLD\n"), "written"
        yield "a directory", lambda d: _mkdir(d / "dir"), "error"
        yield "missing folder", lambda d: d / "missing" / "x.json", "error"
        yield "/dev/full", lambda d: Path("/dev/full"), "error"
        yield "/dev/null", lambda d: Path("/dev/null"), "ok"
        yield "symlink to existing file", lambda d: _symlink(_touch(d / "target.json", b"T\n"), d / "link.json"), "written-through"
        yield "dangling symlink", lambda d: _symlink(d / "nowhere.json", d / "dangling.json"), "any"
        yield "FIFO with a reader", lambda d: _fifo(d / "fifo-r.json", reader=True), "ok"
        yield "FIFO without a reader", lambda d: _fifo(d / "fifo-n.json", reader=False), "error"
        yield "read-only folder (existing file kept)", lambda d: _ro(d / "ro", b"KEEP\n"), "error-or-root"
        yield "name with newline and ANSI escape", lambda d: d / "a\nb\x1b[31m.json", "written"
        yield "name too long", lambda d: d / ("x" * 300 + ".json"), "error"
    for w, (wname, args) in enumerate(WRITERS):
        for tname, make, expect in targets():
            if (fast and (w > 0 or tname not in fast_targets)) or (not fast and w > 0 and (tname not in key or w % 2 == 0) and
                                                                    not (w == 2 and tname == "existing file")):
                continue
            d = base / f"{len(run.rows)}"
            d.mkdir()
            target = make(d)
            before = _snapshot(d)
            code, out, err, sec = cli(args + [str(target)], timeout=8 if "FIFO" in tname else CLI_TIMEOUT)
            one, tb = _one_line("", err) if code != 0 else (True, "Traceback" in out + err)
            _stop_readers()
            after = _snapshot(d)
            lost = [p for p, b in before.items() if p not in after or (code != 0 and after[p] != b)]
            half = [p for p in after if p not in before and p.endswith(".tmp")] + [p for p in after if ".tmp" in p or p.startswith(".")]
            ok = (code == 0) if expect in ("written", "ok", "written-through") else (code == 2) if expect == "error" else code in (0, 2)
            verdict = "as documented" if ok and not lost and not half and one and not tb else "FINDING"
            run.add("writers", f"{wname} -> {tname}", code, "n/a", sec, (err.strip().splitlines() or [""])[-1][:300],
                    {"writer_verdict": verdict, "traceback": tb, "one_line": one, "lost": lost, "half_written": half})
            _chmod_back(d)


_READERS = []


def _touch(p, b):
    p.write_bytes(b)
    return p


def _mkdir(p):
    p.mkdir()
    return p


def _symlink(target, link):
    os.symlink(target, link)
    return link


def _fifo(p, reader):
    os.mkfifo(p)
    if reader:
        def read():
            with open(p, "rb") as h:
                h.read()
        t = threading.Thread(target=read, daemon=True)
        t.start()
        _READERS.append((p, t))
    return p


def _stop_readers():
    while _READERS:
        p, t = _READERS.pop()
        if t.is_alive():
            try:  # unblock a reader still waiting for a writer
                fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK)
                os.close(fd)
            except OSError:
                pass
        t.join(2)


def _ro(d, content):
    d.mkdir()
    (d / "keep.json").write_bytes(content)
    os.chmod(d, 0o555)
    return d / "keep.json"


def _chmod_back(d):
    for root, dirs, _ in os.walk(d):
        for x in dirs:
            try:
                os.chmod(os.path.join(root, x), 0o755)
            except OSError:
                pass


def _snapshot(d):
    out = {}
    for root, _dirs, files in os.walk(d):
        for x in files:
            p = os.path.join(root, x)
            try:
                st = os.lstat(p)
                if stat.S_ISREG(st.st_mode):
                    out[os.path.relpath(p, d)] = Path(p).read_bytes()
                else:
                    out[os.path.relpath(p, d)] = f"<{stat.S_IFMT(st.st_mode)}>"
            except OSError:
                pass
    return out


# ====================================================================== 5. input robustness

def input_cases(tmp, fast):
    d = Path(tmp) / "inputs"
    d.mkdir()
    good = (CERTS / "lower-sum-position-independent-m048-n3.json").read_bytes()
    small = (CERTS / "extension-causal-m10-n3-r5.json").read_bytes()
    cases = [
        ("empty file", b""),
        ("whitespace", b"  \n"),
        ("BOM + valid JSON", b"\xef\xbb\xbf" + good),
        ("NaN claim", good.replace(b'"bound": 467', b'"bound": NaN')),
        ("Infinity claim", good.replace(b'"bound": 467', b'"bound": Infinity')),
        ("-Infinity m", good.replace(b'"m": 48', b'"m": -Infinity', 1)),
        ("duplicate key bound", good.replace(b'"bound": 467', b'"bound": 9999, "bound": 467')),
        ("duplicate key kind", good.replace(b'"kind": "direct-sum"', b'"kind": "lower-bound", "kind": "direct-sum"')),
        ("1e6-deep nesting", b"[" * 10 ** 6 + b"]" * 10 ** 6),
        ("1e6-deep objects", b'{"a":' * 10 ** 6 + b"1" + b"}" * 10 ** 6),
        ("non-UTF-8 byte", good.replace(b"golay-dodecads", b"golay-\xff\xfeodecads")),
        ("lone surrogate escape", good.replace(b"golay-dodecads", b"golay-\\ud800")),
        ("UTF-16 encoded", good.decode().encode("utf-16")),
        ("trailing garbage", good + b"{}"),
        ("two objects", small + small),
        ("top-level array", b"[" + small + b"]"),
        ("float for m", small.replace(b'"m": 10', b'"m": 10.0')),
        ("exponent int 1e1", small.replace(b'"m": 10', b'"m": 1e1')),
        ("huge int literal", small.replace(b'"m": 10', b'"m": ' + b"9" * 5000)),
        ("NUL byte", small[:20] + b"\x00" + small[20:]),
        ("CRLF line ends", small.replace(b"\n", b"\r\n")),
    ]
    paths = []
    for i, (name, data) in enumerate(cases):
        p = d / f"in{i:02d}.json"
        p.write_bytes(data)
        paths.append((name, [str(p)], None))
    if not fast:
        p = d / "huge.json"
        with open(p, "wb") as h:
            h.write(b'{"a": "')
            h.truncate(200 * 2 ** 20)
        paths.append(("200 MB file", [str(p)], None))
        p = d / "big-valid-looking.json"
        # 60 MB of one long string inside a valid-looking header: under max_file_bytes, a long parse
        p.write_bytes(small.replace(b'"n": 3', b'"n": 3, "pad": "' + b"x" * (60 * 2 ** 20) + b'"'))
        paths.append(("60 MB string field (unknown field)", [str(p)], None))
    os.mkfifo(d / "fifo.json")
    paths.append(("FIFO as input", [str(d / "fifo.json")], None))
    paths.append(("a directory as input", [str(d)], None))
    paths.append(("/dev/zero as input", ["/dev/zero"], None))
    paths.append(("missing file", [str(d / "nope.json")], None))
    paths.append(("stdin '-' with a valid file", ["-"], small))
    paths.append(("stdin '-' closed", ["-"], "closed"))
    paths.append(("stdin '-' empty", ["-"], b""))
    paths.append(("name with newline and ESC", [str(_touch(d / "x\n\x1b[2Jy.json", small))], None))
    return paths


def run_inputs(run, tmp, fast):
    cases = input_cases(tmp, fast)
    batch = [(name, args) for name, args, stdin in cases if stdin is None and "newline" not in name]
    if fast:
        batch = [b for b in batch if b[0] in ("NaN claim", "duplicate key bound", "1e6-deep nesting", "FIFO as input", "non-UTF-8 byte")]
    code, out, err, sec = cli(["check", "--json"] + [a[0] for _, a in batch], timeout=120)
    lines = out.splitlines()
    if len(lines) != len(batch) or "Traceback" in err:
        run.add("inputs", "batch", code, "malformed", sec, (out + err)[-300:], {"traceback": "Traceback" in err, "one_line": False})
    else:
        for (name, _args), line in zip(batch, lines, strict=True):
            v = json.loads(line)
            expect = "valid" if name == "CRLF line ends" else "n/a" if name == "lone surrogate escape" else "malformed"
            # the surrogate sits in a free label (code/name), printed escaped
            run.add("inputs", name, v["code"], expect, v.get("seconds") or 0.0, f"{v.get('pointer')}: {v.get('reason')}")
    for name, args, stdin in cases:
        if stdin is None and "newline" not in name:
            continue
        if fast and name not in ("stdin '-' closed",):
            continue
        closed = stdin == "closed"
        code, out, err, sec = cli(["check"] + args, stdin=None if closed else stdin, timeout=30, stdin_closed=closed)
        one, tb = _one_line(out, err)
        expect = "valid" if name in ("stdin '-' with a valid file", "name with newline and ESC", "CRLF line ends") else \
            "n/a" if name == "lone surrogate escape" else "malformed"  # the surrogate sits in a free label (code/name)
        run.add("inputs", name, code, expect, sec, (out + err).strip()[:300],
                {"traceback": tb, "one_line": one})


# ====================================================================== main

def campaign(fast=True, seed=20261203, classes=None):
    rng = random.Random(seed)
    run = Run()
    classes = classes or ("direct-sum", "rank-extension", "level-family", "writers", "inputs")
    with tempfile.TemporaryDirectory(prefix="campaign-v3-") as tmp:
        if "direct-sum" in classes:
            run_direct_sum(run, rng, fast)
        if "rank-extension" in classes:
            run_rank_extension(run, rng, fast, tmp)
            run_rank_extension_cli(run, tmp, fast)
        if "level-family" in classes:
            run_level_family(run, rng, fast)
        if "writers" in classes:
            run_writers(run, tmp, fast)
        if "inputs" in classes:
            run_inputs(run, tmp, fast)
        _chmod_back(Path(tmp))
    return run


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--classes", default=None, help="comma-separated subset")
    ap.add_argument("--rows", action="store_true", help="print every row (JSON Lines) before the summary")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    run = campaign(fast=a.fast, seed=a.seed, classes=a.classes.split(",") if a.classes else None)
    if a.rows:
        for r in run.rows:
            print(json.dumps(r, default=str))
    s = run.summary()
    s["seconds"] = round(time.perf_counter() - t, 1)
    s["writer_findings"] = [r for r in run.rows if r.get("writer_verdict") == "FINDING"]
    s["multi_line"] = [r for r in run.rows if r.get("one_line") is False]
    print(json.dumps(s, indent=1, default=str))
    return 1 if run.false_accepts or run.crashes or run.hangs else 0


if __name__ == "__main__":
    sys.exit(main())
