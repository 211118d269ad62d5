"""Mutation fuzzing of certificates: change one field at a time, and judge every mutant
the checker accepts with an independent oracle built from the generator's own code.

A mutant is *rejected* (checker exit != 0), *accepted-true* (the checker accepts and the
oracle confirms every claim), or a *false accept* (the checker accepts a false claim: a
soundness bug).  Mutants whose premise the oracle cannot evaluate are counted apart.

The second campaign (docs/soundness.md): ``coordinated_campaign`` changes one
datum and then ``settle``s the claimed numbers to what the checker derives, judging every
accept with ``lab.spec_oracle`` (written from the spec alone); ``hostile_campaign`` runs
every file of ``lab.hostile`` in process and through the front end in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import copy
import random
import time
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from math import lcm

from lab import REPO
from kernelbounds.upperbounds import constructions
from kernelbounds.lowerbounds import assemble
from kernelbounds.lowerbounds import certify
from kernelbounds.lowerbounds import orbitform
from kernelbounds import kernelrank as rank
from kernelbounds.lowerbounds import transcript
from kernelbounds.bits import from_str
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from kernelbounds.classes import LevelProfile, worst_error_by_classes
from kernelbounds.lowerbounds.codes import Code, paley
from kernelbounds.lowerbounds.codes.linear import reed_muller
from kernelbounds.upperbounds.constructions import Readout, TensorKernel
from kernelbounds.model import KernelHead, exhaustive_worst_error, feature_head, min_ip_target
from kernelbounds.kernelrank import flint_rank, kernel_rows
from kernelbounds.lowerbounds.transcript import binary_bits


GUARD = True  # check under the runtime guard (a forked child per check), as deployed; the unit
# tests turn it off: the verdicts are the same within the limits, ten times faster

def leaves(obj, path=()) -> Iterator[tuple[tuple, object]]:
    if isinstance(obj, dict):
        for k in sorted(obj):
            yield from leaves(obj[k], path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from leaves(v, path + (i,))
        yield path, obj
    else:
        yield path, obj


def _get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def _set(doc, path, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = _get(doc, path[:-1])
    parent[path[-1]] = value
    return doc


def mutations(value, rng: random.Random) -> list:
    """Candidate replacements for one field."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, value + 2, value - 2, value * 2, 0, -value]
    if isinstance(value, str):
        if value and set(value) <= {"0", "1"} and len(value) > 1:  # a token: flip each bit
            return [value[:i] + ("1" if value[i] == "0" else "0") + value[i + 1 :] for i in range(len(value))]
        try:
            x = Fraction(value)
        except (ValueError, ZeroDivisionError):
            return [value + "x"]
        out = [x + 1, x - 1, -x, x * 2, x / 3 if x else Fraction(1, 3), x + Fraction(1, 7), Fraction(0), Fraction(1)]
        return [str(v) if v.denominator > 1 else str(v.numerator) for v in out]
    if isinstance(value, list):
        out = []
        if value:
            out.append(value[:-1])  # drop
            out.append(value + [value[0]])  # duplicate
            if len(value) > 1:
                i, j = rng.sample(range(len(value)), 2)
                swapped = list(value)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                out.append(swapped)
        return out
    return []


def mutants(doc: dict, rng: random.Random, limit: int) -> Iterator[tuple[str, dict]]:
    """Up to `limit` single-field mutants of doc, in a seeded random order."""
    sites = [(p, v) for p, v in leaves(doc) if p and p[0] not in ("format", "construction")]
    rng.shuffle(sites)
    seen = {canonical_json(doc)}
    for path, value in sites:  # one pass: each field's replacements are fixed, so a second pass adds nothing
        for new in mutations(value, rng):
            mutant = _set(doc, path, new)
            key = canonical_json(mutant) if isinstance(mutant, dict) else repr(mutant)
            if key in seen:
                continue
            seen.add(key)
            yield "/" + "/".join(map(str, path)), mutant
            if len(seen) > limit:
                return


# ----------------------------------------------------------------- oracles


def oracle(doc: dict) -> bool | None:
    """True if every claim of an accepted certificate holds by the generator's routes,
    False if one is false, None if this oracle cannot judge it."""
    kind = doc.get("kind")
    return {"construction": _construction, "lower-bound": _lower, "rank": _rank, "transcript": _transcript, "level-family": _level_family}.get(kind, lambda d: None)(doc)


def _level_family(doc) -> bool | None:
    """The literal head (explicit features, values, readout) on every input, FLINT's rank of
    its kernel, and the generator's exact Motzkin rows for a minimality block."""
    from math import comb, lcm

    from kernelbounds.upperbounds.levelfamily import families as lf_families, supports as lf_supports, verdicts as lf_verdicts
    from kernelbounds.model import exhaustive_worst_error
    from kernelbounds.kernelrank import flint_rank

    m, n, claims = doc["m"], doc["n"], doc["claims"]
    if not (isinstance(m, int) and isinstance(n, int) and 1 <= m <= 4 and 2 <= n <= 4):
        return None
    g = [Fraction(x) for x in doc["differences"]]
    head, features, dv = lf_verdicts.explicit_head(doc)
    table = [[head.weight(x, 0, z, 1) for z in range(2**m)] for x in range(2**m)]
    if any(v <= 0 for row in table for v in row):
        return False
    res = exhaustive_worst_error(head, m, n)
    support = [j for j in range(m + 1) if g[j] != 0]
    rank = sum(comb(m, j) for j in support)
    d = lcm(*(v.denominator for row in table for v in row))
    facts = (
        res.worst_error is not None
        and res.worst_error < Fraction(1, 2)
        and res.worst_error == Fraction(claims["worst_error"])
        and claims["support"] == support
        and claims["feature_rank"] == claims["kernel_rank"] == rank == features
        and flint_rank([[int(v * d) for v in row] for row in table]) == rank
        and claims["nonnegative_features"] == all(x >= 0 for x in g)
        and (doc["readout"]["type"] == "affine" or doc["readout"]["value_dim"] == dv)
    )
    if not facts or "minimality" not in doc:
        return bool(facts)
    nonneg = doc["minimality"]["signs"] == "nonnegative"
    fam = lf_families.LevelFamily(doc["basis"], doc["readout"]["type"], nonneg)
    listed = [tuple(r["support"]) for r in doc["minimality"]["refuted"]]
    if nonneg and not claims["nonnegative_features"]:
        return False
    if any(not any(set(s) <= set(r) for r in listed) for s in lf_supports.maximal_below(m, rank)):
        return False
    return all(lf_supports.refute(fam, s, m, n) is not None for s in listed) and all(lf_families.cost(s, m) < rank for s in listed)


def _construction(doc) -> bool | None:
    m, n = doc["m"], doc["n"]
    if 2**m * 2**m > 2**14 or n > 4:
        return _construction_by_classes(doc)
    r = doc["head"]["readout"]
    readout = Readout(Fraction(r["alpha"]), Fraction(r["beta"]), Fraction(r["gamma"]))
    value = lambda z, j: tuple(Fraction((z >> i) & 1) for i in range(m))  # noqa: E731
    ro = lambda q, i: readout.affine(q, m)  # noqa: E731
    k = doc["head"]["kernel"]
    claims = doc["claims"]
    if k["type"] == "tensor-power":
        ker = TensorKernel(*(tuple(Fraction(x) for x in k[key]) for key in ("f0", "f1", "g0", "g1")))
        head = feature_head(lambda x, i: ker.feature(x, m, "q"), lambda z, j: ker.feature(z, m, "k"), value, ro)
        facts = claims["feature_rank"] == len(k["f0"]) ** m
        facts &= claims["nonnegative_features"] == all(Fraction(x) >= 0 for key in ("f0", "f1", "g0", "g1") for x in k[key])
    else:
        w_q, w_k, b = k["W_Q"], k["W_K"], Fraction(k["exp_beta"])

        def weight(q, i, z, j):
            qv = [sum(row[c] * ((q >> c) & 1) for c in range(m)) for row in w_q]
            zv = [sum(row[c] * ((z >> c) & 1) for c in range(m)) for row in w_k]
            return b ** sum(x * y for x, y in zip(qv, zv, strict=True))

        head = KernelHead(weight, value, ro)
        facts = claims["score_dim"] == len(w_q)
    table = [[head.weight(x, 0, z, 1) for z in range(2**m)] for x in range(2**m)]
    if any(v < 0 for row in table for v in row):
        return False
    res = exhaustive_worst_error(head, m, n)
    if res.worst_error is None or res.worst_error >= Fraction(1, 2) or res.worst_error != Fraction(claims["worst_error"]):
        return False

    d = lcm(*(v.denominator for row in table for v in row))
    return bool(facts) and flint_rank([[int(v * d) for v in row] for row in table]) == claims["kernel_rank"]


def _construction_by_classes(doc) -> bool | None:
    """For larger m: the generator's level-class route and the Kronecker rank formula."""
    m, n, k, r = doc["m"], doc["n"], doc["head"]["kernel"], doc["head"]["readout"]
    if k["type"] != "tensor-power" or m > 64:
        return None
    f = {key: [Fraction(x) for x in k[key]] for key in ("f0", "f1", "g0", "g1")}
    gram = [[sum(a * b for a, b in zip(f["f0" if x == 0 else "f1"], f["g0" if y == 0 else "g1"], strict=True)) for y in (0, 1)] for x in (0, 1)]
    if not gram[0][0] == gram[0][1] == gram[1][0] == 1 or gram[1][1] < 0:
        return False
    alpha, beta, gamma = (Fraction(r[x]) for x in ("alpha", "beta", "gamma"))
    res = worst_error_by_classes(LevelProfile(lambda p, l: gram[1][1] ** l, lambda p, l: alpha * l + beta * p + gamma), m, n)
    rank_g = 2 if gram[1][1] != 1 else 1
    claims = doc["claims"]
    return (
        res.worst_error is not None
        and res.worst_error < Fraction(1, 2)
        and res.worst_error == Fraction(claims["worst_error"])
        and claims["feature_rank"] == len(f["f0"]) ** m
        and claims["kernel_rank"] == rank_g**m
        and claims["nonnegative_features"] == all(x >= 0 for v in f.values() for x in v)
    )


def _lower_linear(doc) -> bool | None:
    from kernelbounds.lowerbounds.assemble import from_certificate

    lin = doc["code"]["linear"]
    if len(doc["schedules"]) != 1:
        return False
    levels, g = tuple(doc["schedules"][0]["levels"]), doc["schedules"][0]["gap"]
    try:
        lb = from_certificate(doc)
    except ValueError:
        return False
    if not lb.code.dimension_ok or lb.size < 2 or levels[0] != 0 or levels[-1] != g or g > (lb.min_distance + 1) // 2:
        return False
    claims = doc["claims"]
    return (claims["bound"], claims["min_product"], claims["code_size"], claims["min_distance"], claims["witness_inputs"]) == (
        lb.bound, lb.min_product, lb.size, lb.min_distance, lb.witness_count()) and lin["weight"] == lb.weight


def _lower_orbits(doc) -> bool:
    """The orbit form judged by the generator's routes: numpy enumeration, scipy orbits,
    np.bincount rows (the checker uses a pure-Python closure and int.bit_count)."""
    import numpy as np

    from kernelbounds.lowerbounds.assemble import from_certificate
    from kernelbounds.lowerbounds.symmetry import is_permutation, orbits, row_histogram

    m = doc["m"]
    perms = doc["symmetry"]["permutations"]
    if not perms or not all(isinstance(p, list) and is_permutation(p, m) for p in perms):
        return False
    try:
        lb = from_certificate(doc)
    except ValueError:
        return False
    if lb.listed is not None:
        words = np.sort(np.array(lb.listed.words, dtype=np.uint64))
    else:
        words = lb.linear.unpadded.words_of_weight_array(lb.weight)
    found = orbits(words, [tuple(p) for p in perms])
    index = {int(w): i for i, w in enumerate(words.tolist())}
    claims, labels = doc["claims"], set()
    for o in claims["orbits"]:
        rep = from_str(o["representative"])
        if rep not in index or int(found.labels[index[rep]]) in labels:
            return False
        label = int(found.labels[index[rep]])
        labels.add(label)
        gaps = {e["gap"]: e["count"] for e in o["gaps"]}
        if o["size"] != found.sizes[label] or gaps != row_histogram(rep, words, m) or [e["gap"] for e in o["gaps"]] != sorted(gaps):
            return False
    if len(labels) != len(found.sizes) or {s["gap"] for s in doc["schedules"]} != set(lb.gaps):
        return False
    return (claims["bound"], claims["min_product"], claims["witness_inputs"], claims["code_size"]) == (lb.bound, lb.min_product, lb.witness_count(), lb.size)


def _lower(doc) -> bool | None:
    if "symmetry" in doc:
        return _lower_orbits(doc)
    if "linear" in doc["code"]:
        return _lower_linear(doc)
    from kernelbounds.lowerbounds.assemble import from_certificate
    from kernelbounds.lowerbounds.witness import witness_family

    words = [from_str(w) for w in doc["code"]["words"]]
    if len(set(words)) != len(words) or len(words) < 2:
        return False
    schedules = {s["gap"]: tuple(s["levels"]) for s in doc["schedules"]}
    if any(levels[0] != 0 or levels[-1] != g for g, levels in schedules.items()):
        return False
    try:
        lb = from_certificate(doc)
    except ValueError:
        return False
    if any(g not in schedules for g in lb.gaps):
        return False
    ok = doc["claims"]["bound"] == lb.bound and doc["claims"]["min_product"] == lb.min_product
    ok &= doc["claims"]["witness_inputs"] == lb.witness_count()
    if "inputs" in doc["witness"]:
        listed = {tuple(from_str(t) for t in inp) for inp in doc["witness"]["inputs"]}
        ok &= listed == set(witness_family(lb)) and len(listed) == len(doc["witness"]["inputs"])
    return bool(ok)


def _rank(doc) -> bool | None:
    if doc["kernel"]["type"] != "level" or doc["m"] > 8:
        return None
    h = [Fraction(x) for x in doc["kernel"]["h"]]
    return flint_rank(kernel_rows(h, doc["m"])) == doc["claims"]["rank"]


def _transcript(doc) -> bool | None:
    q, m = doc["q"], doc["m"]
    inputs = [tuple(from_str(t) for t in inp) for inp in doc["inputs"]]
    if any(len(inp) != doc["n"] or any(x >> m for x in inp) for inp in inputs):
        return False
    if len({inp[:q] for inp in inputs}) > 1:
        return False
    vectors = [tuple(min_ip_target(inp, i) for i in range(q)) for inp in inputs]
    if any(a > doc["s"] for vec in vectors for a in vec):  # answers lie in 0..s
        return False
    if len(set(vectors)) != len(vectors):
        return False
    return doc["claims"]["answer_vectors"] == len(vectors) and doc["claims"]["bits"] == binary_bits(len(vectors))


# ----------------------------------------------------------------- campaign


def seeds() -> list[dict]:
    """Small valid certificates of every kind (cheap to check and to judge)."""
    out = [constructions.certificate(constructions.CONSTRUCTIONS[name](m, n)) for name, m, n in (("tensor", 3, 3), ("softmax", 3, 3), ("rank1", 4, 2), ("tensor", 2, 4))]
    out.append(certify.certificate(assemble.assemble(paley.paley(11).prefix(6), 3), listed=True))
    out.append(certify.certificate(assemble.assemble(paley.paley(11).prefix(5), 4, "position-dependent"), listed=True))
    out.append(certify.certificate(assemble.assemble(Code("blocks", 9, (7, 56, 448)), 3, "causal")))
    out.append(certify.certificate(assemble.assemble(paley.paley(23), 5)))
    out += [rank.certificate(rank.named_kernel(name, 5), 5, name) for name in ("tensor", "inner", "disjoint")]
    out += [transcript.certificate(2, 2), transcript.certificate(3, 1)]
    out.append(constructions.certificate(constructions.CONSTRUCTIONS["softmax"](2, 4)))
    out.append(certify.certificate(assemble.assemble(paley.paley(7), 3), listed=True))

    out.append(certify.linear_certificate(assemble.assemble_linear(reed_muller(2, 4), 8, 4)))
    out.append(certify.linear_certificate(assemble.assemble_linear(reed_muller(1, 4).padded(18), 8, 5, "position-dependent")))
    from kernelbounds.upperbounds.levelfamily import families as lf_families, verdicts as lf_verdicts

    for fam, m in ((lf_families.LevelFamily("complement", "free", True), 3), (lf_families.LevelFamily("subset", "affine", False), 3)):
        res = lf_verdicts.solve_family(fam, m, 3, prove=True)
        out.append(lf_verdicts.certificate(res.found, res.refutations))
    out.append(orbitform.assemble_linear_orbits(reed_muller(2, 4), 6, 3).certificate())  # the orbit form (v2)
    ring = Code("ring", 12, (0b000000001111, 0b000000111100, 0b000011110000, 0b001111000000, 0b111100000000, 0b110000000011))
    out.append(orbitform.assemble_listed_orbits(ring, [tuple((i + 2) % 12 for i in range(12))], 4, "causal").certificate())
    return out


def campaign(total: int, seed: int = 0) -> Counter:
    """Run about `total` mutants spread over the seeds; count the outcomes."""
    rng = random.Random(seed)
    streams = [(doc, mutants(doc, rng, total)) for doc in seeds()]
    counts: Counter = Counter()
    from kernelbounds.progress import track

    for doc, pointer, mutant in track(_round_robin(streams, total), total, "fuzz", "mutant"):
        verdict = check_bytes(canonical_json(mutant).encode() if isinstance(mutant, dict) else b"null", guard=GUARD)
        counts["mutants"] += 1
        if verdict.code != 0:
            counts[f"rejected (exit {verdict.code})"] += 1
            continue
        judged = oracle(mutant)
        if judged is True:
            counts["accepted, true (oracle confirms)"] += 1
        elif judged is None:
            counts["accepted, not judged"] += 1
            counts.setdefault("not judged", []).append((doc["kind"], pointer))  # type: ignore[arg-type]
        else:
            counts["FALSE ACCEPT"] += 1
            counts.setdefault("false accepts", []).append((doc["kind"], pointer))  # type: ignore[arg-type]
    return counts


def _round_robin(streams, total: int):
    """Interleave the seeds' mutant streams until `total` mutants or all are exhausted."""
    made, live = 0, list(streams)
    while live and made < total:
        for item in list(live):
            doc, stream = item
            nxt = next(stream, None)
            if nxt is None:
                live.remove(item)
                continue
            yield doc, nxt[0], nxt[1]
            made += 1
            if made >= total:
                return


# ----------------------------------------------------------------- coordinated mutants


def _json_value(x):
    """A derived value as the certificate writes it (rationals as strings)."""
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return x


def _set_pointer(doc, pointer: str, value):
    path = [int(p) if p.isdigit() else p.replace("~1", "/").replace("~0", "~") for p in pointer.strip("/").split("/")]
    return _set(doc, tuple(path), value)


def settle(doc: dict, limits=None, rounds: int = 12):
    """Set every claimed number (a claim, or a derived datum such as a rank certificate's
    listed differences) to what the checker derives, repeatedly, until the checker accepts
    or rejects for a reason other than a claimed number: (doc, verdict, numbers fixed)."""
    from kernelbounds.checker import Limits

    limits = limits or Limits()
    for step in range(rounds + 1):
        verdict = check_bytes(canonical_json(doc).encode(), limits=limits, guard=GUARD)
        if not (verdict.code == 1 and verdict.derived is not None) or step == rounds:
            return doc, verdict, step
        doc = _set_pointer(doc, verdict.pointer, _json_value(verdict.derived))
    return doc, verdict, rounds


def _retoken(value, m_new: int, m_old: int):
    """Tokens (strings of m_old characters 0/1) padded with zeros or cut to m_new bits,
    everywhere in a value."""
    if isinstance(value, str) and len(value) == m_old and set(value) <= {"0", "1"}:
        return (value + "0" * m_new)[:m_new]
    if isinstance(value, list):
        return [_retoken(v, m_new, m_old) for v in value]
    if isinstance(value, dict):
        return {k: _retoken(v, m_new, m_old) for k, v in value.items()}
    return value


def data_mutants(doc: dict, rng: random.Random, limit: int) -> Iterator[tuple[str, dict]]:
    """Single changes of the data (never of a claim): every single-field mutant outside
    /claims, plus m changed consistently (every token padded or cut, lists of length m+1
    and score-matrix rows extended) for m+1, m+2, 2m and m-1."""
    made = 0
    if isinstance(doc.get("m"), int):
        for m_new in (doc["m"] + 1, doc["m"] + 2, 2 * doc["m"], doc["m"] - 1):
            if m_new < 1:
                continue
            mutant = {k: (_retoken(v, m_new, doc["m"]) if k not in ("claims", "format", "kind") else copy.deepcopy(v)) for k, v in doc.items()}
            mutant["m"] = m_new
            _extend_per_bit_lists(mutant, m_new)
            made += 1
            yield f"/m={m_new} (consistent)", mutant
    for pointer, mutant in mutants(doc, rng, limit):
        if made >= limit:
            return
        if not pointer.startswith("/claims"):
            made += 1
            yield pointer, mutant


def _extend_per_bit_lists(doc: dict, m: int) -> None:
    kernel = doc.get("head", {}).get("kernel") if "head" in doc else doc.get("kernel")
    if not isinstance(kernel, dict):
        return
    for key in ("differences", "h"):
        if isinstance(kernel.get(key), list):
            kernel[key] = (kernel[key] + ["0"] * (m + 1))[: m + 1]
    for key in ("W_Q", "W_K"):
        if isinstance(kernel.get(key), list):
            kernel[key] = [(row + [0] * m)[:m] for row in kernel[key]]
    up = doc.get("upper")
    if isinstance(up, dict) and isinstance(up.get("differences"), list):
        up["differences"] = (up["differences"] + ["0"] * (m + 1))[: m + 1]


def v2_seeds() -> list[dict]:
    """Small valid certificates of every v2 kind and form (the third campaign's seeds): the
    fuzz seeds of version 2 and committed files of each v2 kind."""
    certs = REPO / "certificates"
    out = [d for d in seeds() if d.get("version") == 2]
    for name in ("explicit-head-m04-n3-r2.json", "explicit-rank1-m02-n4.json", "rank-one-infeasible-m04-n3.json", "upper-any-m04-n3.json", "upper-nonnegative-m05-n3.json"):
        if (certs / name).exists():
            out.append(json.loads((certs / name).read_text()))
    return out


def _form(doc: dict) -> str:
    return f"{doc['kind']} (orbit form)" if doc.get("kind") == "lower-bound" and "symmetry" in doc else doc["kind"]


def coordinated_campaign(total: int, seed: int = 0, judge_limit_s: float = 30.0, docs: list[dict] | None = None, judge=None, single: bool = False) -> dict:
    """About `total` coordinated mutants over the seeds; per kind: tried, accepted,
    confirmed true by the spec oracle (lab/spec_oracle.py, or `judge`), not judged (too
    large for its literal routes), false accepts, exit 4, and the slowest verdict.
    `docs` replaces the seeds; `single` adds the single-field mutants of the claims."""

    if judge is None:
        from lab.spec_oracle import judge

    rng = random.Random(seed)
    docs = seeds() if docs is None else docs
    streams = [(doc, data_mutants(doc, rng, total)) for doc in docs]
    if single:
        streams += [(doc, ((p, mu) for p, mu in mutants(doc, rng, total) if p.startswith("/claims"))) for doc in docs]
    stats: dict = {}
    for doc, pointer, mutant in _round_robin(streams, total):
        row = stats.setdefault(_form(doc), Counter(tried=0, accepted=0, true=0, not_judged=0, false_accepts=0, exit4=0))
        row.setdefault("slowest_s", 0.0)
        t0 = time.perf_counter()
        settled, verdict, fixed = settle(mutant)
        row["slowest_s"] = max(row["slowest_s"], time.perf_counter() - t0)
        row["tried"] += 1
        row["claims_fixed"] += fixed
        row["coordinated"] += fixed > 0
        if verdict.code == 4:
            row["exit4"] += 1
            stats.setdefault("internal errors", []).append((_form(doc), pointer, verdict.reason))
        if verdict.code != 0:
            row[f"exit{verdict.code}_final"] += 1
            continue
        row["accepted"] += 1
        judged = judge(settled)
        if judged is True:
            row["true"] += 1
        elif judged is None:
            row["not_judged"] += 1
        else:
            row["false_accepts"] += 1
            stats.setdefault("false accepts", []).append((_form(doc), pointer))
    return stats


def hostile_campaign(folder: str | None = None) -> dict:
    """Every hostile file (lab/hostile.py) under the default limits: counts by class,
    unexpected verdicts, exit 4, forged lines (a verdict not on exactly one printable
    line), the slowest verdict and the process's peak memory."""
    import resource
    import tempfile

    from kernelbounds.checker import check_file
    from lab import hostile

    out = Counter(files=0, unexpected=0, exit4=0, forged_lines=0)
    out["slowest_s"] = 0.0
    paths = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, expected in hostile.all_items(big=True):
            path = f"{folder or tmp}/hostile-{out['files']}.json"
            with open(path, "wb") as fh:
                fh.write(data)
            del data
            t0 = time.perf_counter()
            verdict = check_file(path)
            _tally(out, name, verdict, expected, time.perf_counter() - t0)
            paths.append(path)
        for name, path, expected in hostile.special_files(tmp):
            t0 = time.perf_counter()
            _tally(out, name, check_file(path), expected, time.perf_counter() - t0)
            paths.append(path)
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        out["peak_checking_child_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024  # the guard's children
        out.update(_front_end_pass(paths))
    return out


VERDICT_WORDS = ("VALID ", "INVALID ", "MALFORMED ", "RESOURCE LIMIT ", "INTERNAL ERROR ")


def _front_end_pass(paths: list[str]) -> dict:
    """Every hostile file once more through `python -m kernelbounds.checker` in a fresh
    process: exactly one verdict line per file, nothing on stderr (no traceback), and the
    child's peak memory."""
    import os
    import subprocess
    import sys
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".hwm") as hwm:
        # the child writes its own peak resident memory (VmHWM of its exec'd image: the
        # fork's copy of this process's memory does not count) to a side file
        env = dict(os.environ, KERNELBOUNDS_HWM=hwm.name)
        proc = subprocess.run([sys.executable, "-c", _CHILD, *paths], capture_output=True, timeout=3600, env=env)
        peak = int(open(hwm.name).read() or 0) // 1024
    lines = proc.stdout.split(b"\n")[:-1]
    return {
        "front end: lines": len(lines),
        "front end: lines not one verdict per file": abs(len(lines) - len(paths)) + sum(not ln.decode("utf-8", "replace").startswith(VERDICT_WORDS) for ln in lines),
        "front end: stderr bytes (tracebacks)": len(proc.stderr),
        "front end: exit code": proc.returncode,
        "front end: child peak memory (MiB)": peak,
    }


_CHILD = """
import os, sys
from kernelbounds.checker.__main__ import main
code = main(sys.argv[1:])
status = open("/proc/self/status").read() if os.path.exists("/proc/self/status") else ""
hwm = [line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")]
import resource  # the checks run in forked children (the runtime guard): their largest peak too
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(os.environ["KERNELBOUNDS_HWM"], "w").write(str(max(int(hwm[0]) if hwm else 0, kids)))
sys.exit(code)
"""


def _tally(out: Counter, name: str, verdict, expected, seconds: float) -> None:
    out["files"] += 1
    out[f"exit {verdict.code}"] += 1
    out["exit4"] += verdict.code == 4
    line = verdict.render(verbose=False)
    out["forged_lines"] += ("\n" in line) or not line.isprintable()
    if verdict.code not in expected:
        out["unexpected"] += 1
        out.setdefault("unexpected files", []).append(f"{name}: {line[:200]}")
    if seconds > out["slowest_s"]:
        out["slowest_s"], out["slowest"] = seconds, name
    out.setdefault("verdicts", []).append((name, int(verdict.code), round(seconds, 2)))


def main(argv: list[str] | None = None) -> int:
    """``python -m lab.fuzz [TOTAL] [SEED] [--coordinated N] [--hostile]``:
    campaigns; exit 1 on any false accept, exit 4 or unexpected hostile verdict."""
    import time

    ap = argparse.ArgumentParser(prog="python -m lab.fuzz", description=main.__doc__)
    ap.add_argument("total", nargs="?", type=int, default=30000)
    ap.add_argument("seed", nargs="?", type=int, default=1)
    ap.add_argument("--coordinated", type=int, default=0, metavar="N", help="also N coordinated mutants (claims re-derived), judged by the spec oracle")
    ap.add_argument("--hostile", action="store_true", help="also every hostile file under the default limits")
    args = ap.parse_args(argv)
    bad = 0
    if args.coordinated:
        t0 = time.perf_counter()
        stats = coordinated_campaign(args.coordinated, args.seed)
        print("| kind | mutants tried | claims re-derived | accepted | confirmed true | not judged | false accepts | exit 4 | slowest verdict (s) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for kind, row in sorted((k, v) for k, v in stats.items() if isinstance(v, Counter)):
            print(f"| {kind} | {row['tried']} | {row['coordinated']} | {row['accepted']} | {row['true']} | {row['not_judged']} | {row['false_accepts']} | {row['exit4']} | {row['slowest_s']:.2f} |")
            bad += row["false_accepts"] + row["exit4"]
        for key in ("false accepts", "internal errors"):
            for item in stats.get(key, [])[:20]:
                print(f"{key}: {item}")
        print(f"seconds: {time.perf_counter() - t0:.1f}")
    if args.hostile:
        t0 = time.perf_counter()
        out = hostile_campaign()
        print("| hostile files | count |\n|---|---:|")
        for key, value in out.items():
            if not isinstance(value, list):
                print(f"| {key} | {value if not isinstance(value, float) else f'{value:.2f}'} |")
        for item in out.get("unexpected files", []):
            print(f"unexpected: {item}")
        bad += out["unexpected"] + out["exit4"] + out["forged_lines"] + out["front end: lines not one verdict per file"] + out["front end: stderr bytes (tracebacks)"]
        print(f"seconds: {time.perf_counter() - t0:.1f}")
    if args.total == 0:
        return 1 if bad else 0
    t0 = time.perf_counter()
    counts = campaign(args.total, args.seed)
    print("| outcome | count |\n|---|---:|")
    for key, value in counts.items():
        if not isinstance(value, list):
            print(f"| {key} | {value} |")
    for key in ("false accepts", "not judged"):
        for kind, pointer in counts.get(key, [])[:20]:
            print(f"{key}: {kind} {pointer}")
    print(f"seconds: {time.perf_counter() - t0:.1f}")
    return 1 if counts.get("FALSE ACCEPT") or bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
