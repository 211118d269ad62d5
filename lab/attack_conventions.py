"""Wrong-convention attack on the rank-refutation rule (THEORY U7).

For each plausible misreading of the spec's CNF (forcing at |<q,a> - <q,b>| >= 1, chi of the
sorted set without the alternating sign, Cramer coefficients without (-1)^j) build that CNF
with the oracle's code (lab/spec_oracle_newkinds.py, its convention switches), solve it
with CaDiCaL, and where the misread CNF is UNSAT while the spec's CNF is SAT, write a
certificate carrying the misread CNF's DRAT proof (format drat-rup).  A checker that builds
the spec's CNF must refuse every such file; accepting one is a false accept.

    python lab/attack_conventions.py OUTDIR
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from lab.spec_oracle_newkinds import chirotope_cnf, oriented_pattern, popcount, witness_family  # noqa: E402

CONVENTIONS = ("spec", "threshold-1", "no-alternating-sign", "cramer-no-(-1)^j", "cramer-one-clause")
# the switch of lab/spec_oracle_newkinds.chirotope_cnf each convention turns off (threshold-1
# misreads the forcing, not the CNF)
SWITCH = {"no-alternating-sign": "sorting_sign", "cramer-no-(-1)^j": "cramer_alternates",
          "cramer-one-clause": "cramer_both"}


def tok(x, m):
    return "".join("1" if x >> i & 1 else "0" for i in range(m))


def cnf(k, r, patterns, conv):
    return chirotope_cnf(k, r, patterns, **({SWITCH[conv]: False} if conv in SWITCH else {}))


def patterns_for(Q, m, r, thr):
    pats, pairs, seen = [], [], set()
    for a in range(1 << m):
        for b in range(a + 1, 1 << m):
            s = oriented_pattern(Q, a, b, thr)
            if sum(1 for x in s if x) < r + 1:
                continue
            if s not in seen:
                seen.add(s)
                pats.append(s)
                pairs.append((a, b))
    return pats, pairs


def solve(clauses, nvars, proof_path):
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
        f.write(f"p cnf {nvars} {len(clauses)}\n")
        for c in clauses:
            f.write(" ".join(map(str, c)) + " 0\n")
        name = f.name
    p = subprocess.run(["cadical", "-q", "--no-binary", "--plain", name, proof_path],
                       capture_output=True, text=True, timeout=300)
    Path(name).unlink()
    return p.returncode  # 10 SAT, 20 UNSAT


def drat_to_lrat(clauses, drat_lines, first_id):
    """Own RUP replay of a DRAT proof (deletions ignored) that writes each lemma as an LRAT
    step whose hints are the reason clauses in propagation order, then the conflict clause."""
    db = {i + 1: tuple(c) for i, c in enumerate(clauses)}
    occ = {}
    for cid, c in db.items():
        for x in c:
            occ.setdefault(x, []).append(cid)
    units = [cid for cid, c in db.items() if len(c) == 1]
    out, nid = [], first_id
    for line in drat_lines:
        t = line.split()
        if not t or t[0] == "d":
            continue
        lits = [int(x) for x in t[:-1]]
        true = {-x for x in lits}
        hints, queue, conflict = [], list(true), None
        for cid in units:
            x = db[cid][0]
            if -x in true:
                conflict = cid
                break
            if x not in true:
                true.add(x)
                queue.append(x)
                hints.append(cid)
        while queue and conflict is None:
            lit = queue.pop(0)
            for cid in occ.get(-lit, ()):
                c = db[cid]
                if any(x in true for x in c):
                    continue
                free = [x for x in c if -x not in true]
                if not free:
                    conflict = cid
                    break
                if len(free) == 1:
                    true.add(free[0])
                    queue.append(free[0])
                    hints.append(cid)
        if conflict is None:
            return None  # not RUP: cadical used something else
        hints.append(conflict)
        out.append(" ".join(map(str, [nid] + lits + [0] + hints + [0])))
        db[nid] = tuple(lits)
        for x in lits:
            occ.setdefault(x, []).append(nid)
        if len(lits) == 1:
            units.append(nid)
        nid += 1
        if not lits:
            break
    return out


def attacks(outdir, cases=((4, 2), (5, 3))):
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    made = []
    for m, r in cases:
        Q = sorted((x for x in range(1 << m) if popcount(x) == 2))
        k = len(Q)
        nv = math.comb(k, r)
        spec_pats, spec_pairs = patterns_for(Q, m, r, 2)
        spec = cnf(k, r, spec_pats, "spec")
        rc_spec = solve(spec, nv, "/dev/null")
        for conv in CONVENTIONS[1:]:
            pats = spec_pats
            if conv == "threshold-1":  # the same pairs, forced at every level difference
                pats, seen = [], set()
                for a, b in spec_pairs:
                    s = oriented_pattern(Q, a, b, 1)
                    if s not in seen:
                        seen.add(s)
                        pats.append(s)
            bad = cnf(k, r, pats, conv)
            proof = outdir / f"_{m}_{r}_{conv}.drat"
            rc = solve(bad, nv, str(proof))
            made.append({"m": m, "r": r, "convention": conv, "misread": rc, "spec": rc_spec})
            if rc != 20 or rc_spec != 10:
                proof.unlink(missing_ok=True)
                continue
            drat = [ln.strip() for ln in proof.read_text().splitlines() if ln.strip()]
            proof.unlink()
            lrat = drat_to_lrat(bad, drat, len(bad) + 1)
            # the spec's pairs where they are forced (else the misread ones): keep the file
            # well-formed for RR2 whenever possible
            use = spec_pairs
            for claims_from, fmt, steps in (("spec", "drat-rup", drat), ("misread", "drat-rup", drat),
                                            ("spec", "lrat", lrat), ("misread", "lrat", lrat)):
                if steps is None:
                    continue
                base = spec if claims_from == "spec" else bad
                doc = {
                    "format": "kernelbounds-certificate", "version": 2, "kind": "rank-refutation",
                    "m": m, "n": 3, "variant": "position-independent", "kernel": "signed",
                    "rank": r, "queries": [tok(q, m) for q in Q],
                    "pairs": [{"a": tok(a, m), "b": tok(b, m)} for a, b in use],
                    "solver": {"name": "cadical", "version": "sc2021"},
                    "proof": {"format": fmt, "steps": steps},
                    "claims": {"bound": r + 1, "variables": nv, "clauses": len(base),
                               "witness_inputs": len(witness_family(Q, use, 3, "position-independent"))},
                }
                path = outdir / f"attack-{conv}-m{m}-r{r}-{claims_from}-{fmt}.json"
                path.write_text(json.dumps(doc))
                made[-1].setdefault("files", []).append(str(path))
    return made


if __name__ == "__main__":
    print(json.dumps(attacks(sys.argv[1] if len(sys.argv) > 1 else "/tmp/attacks"), indent=1))
