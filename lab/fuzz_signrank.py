"""Mutation campaign for the `orthant` and `crossing` kinds: mutants of the
committed files (and of listed-form copies of the rule-form files) go to the checker as a
black box (``check_bytes``); every accepted mutant is judged by the independent spec
oracle ``lab.spec_oracle_signrank``.  A false accept is checker VALID, oracle False.

Two campaigns, as in lab/fuzz.py:
- single-field: ``fuzz.mutants`` (one field changed, claims included);
- coordinated: ``fuzz.data_mutants`` (one datum changed, or m changed consistently), then
  the dependent data repaired so that the mutant can be accepted at all: an orthant
  pattern is set to the forced signs, every crossing walk is replaced by a cycle of the
  precedence graph (found here by depth-first search), and ``fuzz.settle`` sets every
  claimed number to what the checker derives.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
from collections import Counter

from lab import REPO
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from lab import spec_oracle_signrank as so
from lab.fuzz import _round_robin, data_mutants, mutants, settle

CERTS = REPO / "certificates"


def listed(doc: dict) -> dict:
    """A rule-form orthant file written out as its listed family (more data to mutate)."""
    queries, pairs = so.disjoint_pairs(doc["m"])
    out = copy.deepcopy(doc)
    out["family"] = {"queries": queries, "pairs": pairs}
    return out


def seeds(max_m: int = 8) -> list[dict]:
    """The committed orthant/crossing files with m <= max_m, and listed copies of the
    rule-form ones."""
    docs = [json.loads(p.read_text()) for p in sorted(CERTS.glob("orthant-*.json")) + sorted(CERTS.glob("crossing-*.json"))]
    docs = [d for d in docs if d["m"] <= max_m]
    return docs + [listed(d) for d in docs if d["kind"] == "orthant" and "rule" in d["family"]]


def find_walk(sets, choice: int) -> list[dict] | None:
    """A closed walk of strict precedences for one direction choice, as CR2 steps: the
    oracle's cycle of the precedence graph, rotated to start at a query (not a hub)."""
    path = so.find_cycle(so.precedence_graph(sets, choice))
    if path is None:
        return None
    i = next(j for j, x in enumerate(path) if not isinstance(x, tuple))
    path = path[i:] + path[:i]
    return [{"query": path[j], "pair": path[j + 1][1]} for j in range(0, len(path), 2)]


def repair(doc: dict) -> dict:
    """Make the dependent data agree with a mutated datum where it can."""
    doc = copy.deepcopy(doc)
    try:
        m, n = doc["m"], doc["n"]
        if doc.get("kind") == "orthant" and "queries" in doc.get("family", {}):
            for p in doc["family"]["pairs"]:
                signs = [so.forced(q, p["a"], p["b"], n) for q in doc["family"]["queries"]]
                if all(signs):
                    p["pattern"] = "".join(signs)
        elif doc.get("kind") == "crossing" and m <= 10 and len(doc["pairs"]) <= 10:
            tokens = ["".join(format(x, f"0{m}b")[::-1]) for x in range(2**m)]
            sets = [so.forced_sets(p["a"], p["b"], tokens, n) for p in doc["pairs"]]
            for c in range(min(2 ** len(sets), len(doc["cycles"]))):
                walk = find_walk(sets, c)
                if walk is not None:
                    doc["cycles"][c] = {"steps": walk}
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, so.Bad):
        pass
    return doc


def _verdict(doc) -> int:
    from lab import fuzz  # its GUARD: checked under the runtime guard unless the tests turn it off

    return check_bytes(canonical_json(doc).encode() if isinstance(doc, dict) else b"null", guard=fuzz.GUARD).code


def _judge_into(row: Counter, stats: dict, kind: str, pointer: str, doc) -> None:
    row["accepted"] += 1
    distinct = stats.setdefault("_seen", {}).setdefault(kind, set())
    key = canonical_json(doc)
    row["distinct_accepted"] += key not in distinct
    distinct.add(key)
    judged = so.judge(doc)
    row[{True: "true", None: "not_judged", False: "false_accepts"}[judged]] += 1
    if judged is False:
        stats.setdefault("false accepts", []).append((kind, pointer))


def single_field(total: int, seed: int = 0) -> dict:
    """About `total` single-field mutants over the seeds (round robin)."""
    rng = random.Random(seed)
    streams = [(d, mutants(d, rng, total)) for d in seeds()]
    return _run(streams, total, coordinated=False)


def coordinated(total: int, seed: int = 0) -> dict:
    rng = random.Random(seed)
    streams = [(d, data_mutants(d, rng, total)) for d in seeds()]
    return _run(streams, total, coordinated=True)


def pair_mutants(doc: dict, rng: random.Random, limit: int):
    """Crossing files with one or two pairs replaced by random token pairs (the walks are
    then repaired by `coordinated`)."""
    m, k = doc["m"], len(doc["pairs"])
    for i in range(limit):
        mutant = copy.deepcopy(doc)
        for e in rng.sample(range(k), rng.choice((1, 2)) if k > 1 else 1):
            mutant["pairs"][e] = {s: "".join(rng.choice("01") for _ in range(m)) for s in ("a", "b")}
        yield f"/pairs (random replacement {i})", mutant


def pairs_campaign(total: int, seed: int = 0) -> dict:
    rng = random.Random(seed)
    streams = [(d, pair_mutants(d, rng, total)) for d in seeds() if d["kind"] == "crossing"]
    return _run(streams, total, coordinated=True)


def _run(streams, total: int, coordinated: bool) -> dict:
    stats: dict = {}
    for doc, pointer, mutant in _round_robin(streams, total):
        row = stats.setdefault(doc["kind"], Counter(tried=0, accepted=0, true=0, not_judged=0, false_accepts=0, exit4=0))
        row["tried"] += 1
        if coordinated:
            mutant, verdict, _ = settle(repair(mutant))
            code = verdict.code
        else:
            code = _verdict(mutant)
        row["exit4"] += code == 4
        if code == 0:
            _judge_into(row, stats, doc["kind"], pointer, mutant)
        elif code in (1, 2) and so.judge(mutant) is True:  # the checker refuses a true file
            row["false_rejects"] += 1
            stats.setdefault("false rejects", []).append((doc["kind"], pointer))
    stats.pop("_seen", None)
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--single", type=int, default=3000)
    ap.add_argument("--coordinated", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pairs", type=int, default=1000)
    args = ap.parse_args(argv)
    runs = (("single-field", single_field(args.single, args.seed)), ("coordinated", coordinated(args.coordinated, args.seed)),
            ("random crossing pairs", pairs_campaign(args.pairs, args.seed)))
    for name, stats in runs:
        print(name)
        for kind, row in stats.items():
            print(f"  {kind}: {dict(row) if isinstance(row, Counter) else row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
