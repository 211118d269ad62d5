"""Timing table for the project's speed targets (run through scripts/bench).

Honest by construction: every job runs in its own fresh process (no warm caches, no
shared imports), several times; the table shows the median and the spread (min..max) of
the CPU seconds of the measured region (including the worker processes it waited for),
and each row names its anchor, a baseline measured in the same run, with the ratio
median / anchor median.  Slow or merely illustrative rows (sympy, float ranks, the m = 24
search, every level family at m = 20, the 13.3 M-input evaluation) run only with --all.

    scripts/bench [--repeats 3] [--all] [--only SUBSTRING]
    python scripts/bench.py --job NAME      (one job, prints JSON; used internally)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # lab/ (the hostile generators) lives at the repository root, outside the package
CERTS = ROOT / "certificates"


# ----------------------------------------------------------------- jobs (each: setup, then a timed run)


def _literal_classes(m: int, n: int) -> Fraction:
    """The anchor for level classes: one Fraction output per class, as the code did before."""
    from kernelbounds.upperbounds.constructions import tensor

    profile, worst = tensor(m, n).profile(), Fraction(0)
    for p in range(m + 1):
        w = [Fraction(profile.weight(p, l)) for l in range(p + 1)]
        wf = [w[l] * profile.score(p, l) for l in range(p + 1)]
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            den = w[p] + sum(w[l] for l in levels)
            worst = max(worst, abs((wf[p] + sum(wf[l] for l in levels)) / den - min((p, *levels))))
    return worst


def job_classes_literal_m64_n4():
    return lambda: f"worst error {_literal_classes(64, 4)} (Fraction per class)"


def _classes(route: str, m: int, n: int, note: str):
    """A generator route of kernelbounds.classes on U2's profile (set up outside the timing)."""
    from kernelbounds import classes
    from kernelbounds.upperbounds.constructions import tensor

    profile, fn = tensor(m, n).profile(), getattr(classes, route)
    return lambda: f"worst error {fn(profile, m, n).worst_error} ({note})"


def job_classes_generator_m64_n4():
    return _classes("worst_error_all_classes", 64, 4, "integers")


def job_classes_extreme_m64_n4():
    return _classes("worst_error_extreme_classes", 64, 4, "classes (p, t, u, u) only")


def job_classes_checker_m64_n4():
    from kernelbounds.checker.rules.construction import worst_by_classes

    c = Fraction(1, 7)
    return lambda: f"worst error {worst_by_classes(lambda l: c**l, lambda p, l: Fraction(l), 64, 4)[0]} (checker's loop)"


def job_exhaustive_m4_n3():
    from kernelbounds.upperbounds.constructions import tensor
    from kernelbounds.model import exhaustive_worst_error

    head = tensor(4, 3).head()
    return lambda: f"worst error {exhaustive_worst_error(head, 4, 3).worst_error} (every input over {{0,1}}^4)"


def job_classes_m4_n3():
    return _classes("worst_error_by_classes", 4, 3, "by level classes")


def _check(name: str):
    from kernelbounds.checker import check_file

    def run():
        v = check_file(str(CERTS / name))
        return f"exit {v.code}: {v.summary[:70]}"

    return run


def job_check_u2_m64_n5():
    return _check("construction-tensor-m64-n5.json")



def job_check_u2_m16_n4():
    return _check("construction-tensor-m16-n4.json")


def job_check_refutation_m6():
    """The anchor for the rank refutations: the m = 6, r = 3 core (84 variables, 1,050 LRAT lemmas)."""
    return _check("refutation-position-independent-m06-n3-r3.json")


def job_check_refutation_m8():
    return _check("refutation-position-independent-m08-n3-r4.json")


def job_check_extension_m20():
    return _check("extension-causal-m20-n3-r10.json")


def job_check_rank_m12():
    return _check("rank-tensor-m12.json")


def _tensor_m12_entries():
    """The integer-scaled 4096 x 4096 matrix of rank-tensor-m12.json, as one flat list."""
    doc = json.loads((CERTS / "rank-tensor-m12.json").read_text())
    h = [Fraction(x) for x in doc["kernel"]["h"]]
    d = max(x.denominator for x in h)
    table = [int(x * d) for x in h]
    return [table[(x & z).bit_count()] for x in range(4096) for z in range(4096)], int(doc["lower"]["prime"])


def job_bare_fmpz_m12():
    import flint

    entries, _ = _tensor_m12_entries()
    return lambda: f"rank {flint.fmpz_mat(4096, 4096, entries).rank()} (fmpz_mat from a prepared list, then rank)"


def job_bare_nmod_m12():
    import flint

    entries, p = _tensor_m12_entries()
    entries = [v % p for v in entries]
    return lambda: f"rank {flint.nmod_mat(4096, 4096, entries, p).rank()} (nmod_mat mod {p} from a prepared list, then rank)"


def job_rank_tool_m12():
    from kernelbounds import kernelrank as rank

    h = rank.named_kernel("tensor", 12)
    return lambda: f"rank {rank.flint_rank(rank.kernel_rows(h, 12))} (generator: matrix with numpy, then fmpz_mat.rank)"


def job_gap_histogram_3000():
    from kernelbounds.lowerbounds.codes import golay
    from kernelbounds.lowerbounds.codes.verify import gap_histogram

    words = golay.dodecads().words + golay.octads().words[:424]
    return lambda: f"{len(words)} words, {sum(gap_histogram(words, 24).values())} ordered pairs"


def job_check_lower_m24():
    return _check("lower-position-independent-m24-n3.json")


def job_check_linear_m64():
    return _check("lower-position-independent-m64-n8.json")


def job_bound_m24():
    from kernelbounds.lowerbounds import assemble

    return lambda: f"r >= {assemble.best(24, 3).bound}"


def job_upper_m16():
    """What `kernelbounds upper --m 16 --n 3 --search` runs: the complement-basis families."""
    from kernelbounds.upperbounds.levelfamily import families as lf_families, verdicts as lf_verdicts

    def run():
        r = lf_verdicts.best(lf_verdicts.solve_families(lf_families.families("complement"), 16, 3, processes=1))
        return f"rank {r.rank} < 2^16 = {2**16}"

    return run


def job_hub_m16():
    """What `kernelbounds upper --m 16 --n 3` and `bound` answer: the hub (committed certificate)."""
    from kernelbounds.hub.answer import bounds

    return lambda: f"rank {bounds(16, 3).upper.value} ({bounds(16, 3).upper.certificate})"


def job_table_m4_64():
    from kernelbounds.reports import report

    return lambda: f"{len(report.table(range(4, 65), range(3, 9)))} rows"


def _process(code: list[str]):
    """A fresh interpreter outside the repository (the installed package), timed whole:
    its CPU counts through RUSAGE_CHILDREN."""
    import tempfile

    def run():
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([sys.executable, *code], capture_output=True, text=True, cwd=tmp, check=True)
        return out.stdout.strip().splitlines()[0][:90]

    return run


def job_index_lookup():
    """The anchor of `bound`: a process that reads the shipped INDEX and finds one entry."""
    return _process(["-c", "import json, importlib.resources as r; d = json.loads((r.files('kernelbounds') / 'certificates' / 'INDEX').read_bytes()); "
                           "print([e['claim']['value'] for e in d['certificates'] if e['name'] == 'lower-position-independent-m64-n3.json'])"])


def job_bound_cli_m64_n3():
    """`kernelbounds bound --m 64 --n 3` as a user runs it (a fresh process, the installed package)."""
    return _process(["-m", "kernelbounds", "bound", "--m", "64", "--n", "3"])


def job_sympy_rank_m7():
    import sympy

    from kernelbounds import kernelrank as rank

    rows = rank.kernel_rows(rank.named_kernel("tensor", 7), 7)
    return lambda: f"rank {sympy.Matrix(rows).rank()} (128 x 128)"


def job_numpy_float_rank_m12():
    import numpy as np

    from kernelbounds import kernelrank as rank

    rows = np.array(rank.kernel_rows(rank.named_kernel("tensor", 12), 12), dtype=float)
    return lambda: f"float rank {np.linalg.matrix_rank(rows)} (exact 4096)"


# ---- level families, exact small m, evaluation (ported from the old bench's BENCHES list)


def job_tokens_literal_26_8():
    """The anchor for tokens_of_weight: one generator sum per support, as the code did before."""
    from itertools import combinations

    return lambda: f"{sum(1 for _ in (sum(1 << i for i in s) for s in combinations(range(26), 8)))} tokens (literal sum per support)"


def job_tokens_of_weight_26_8():
    from kernelbounds.bits import tokens_of_weight

    return lambda: f"{sum(1 for _ in tokens_of_weight(26, 8))} tokens"


def job_lexicode_literal_24_8_4():
    """The anchor for lexicode: the previous implementation (a mask over every candidate, one
    full pass per kept word), inlined here."""
    import numpy as np

    from kernelbounds.bits import tokens_of_weight
    from kernelbounds.lowerbounds.codes.verify import limbs

    def run():
        words = list(tokens_of_weight(24, 8))
        arr = limbs(words, 24)
        alive, kept, start = np.ones(len(words), dtype=bool), [], 0
        while len(kept) < 3000:
            free = np.flatnonzero(alive[start:])
            if free.size == 0:
                break
            pick = start + int(free[0])
            kept.append(words[pick])
            alive &= np.bitwise_count(arr & arr[pick]).sum(axis=1) <= 4
            alive[pick] = False
            start = pick + 1
        return f"{len(kept)} words (full mask per pick)"

    return run


def job_lexicode_24_8_4():
    from kernelbounds.lowerbounds.codes.lexicode import lexicode

    return lambda: f"{lexicode(24, 8, 4, 3000).size} words (survivors only)"


def job_check_uniform_m64_n3():
    """The anchor for the orbit-form check: the same code (RM(2,6), weight 32) in the uniform
    form, built outside the timing and checked from bytes."""
    from kernelbounds.lowerbounds import assemble
    from kernelbounds.certificate import canonical_json
    from kernelbounds.checker import check_bytes
    from kernelbounds.lowerbounds.codes.linear import reed_muller

    data = canonical_json(assemble.assemble_linear(reed_muller(2, 6), 32, 3).certificate()).encode()

    def run():
        v = check_bytes(data)
        return f"exit {v.code}: {v.summary[:70]}"

    return run


def job_check_orbit_m64_n3():
    return _check("lower-position-independent-m64-n3.json")


def _rm26_orbit_inputs():
    """RM(2,6) weight 32 from the committed m = 64 orbit file: the node, its 1,828,134 words
    (the checker's enumeration, outside the timing), the permutations, the representatives."""
    from kernelbounds.checker.jsonread import Node
    from kernelbounds.checker.limits import Limits
    from kernelbounds.checker.rules import orbits

    node = Node(json.loads((CERTS / "lower-position-independent-m64-n3.json").read_text()))
    rows, words, messages, _ = orbits.linear_words(node, 64, Limits())
    images = orbits.read_permutations(node["symmetry"]["permutations"], 64)
    reps = [o["representative"].token(64) for o in node["claims"]["orbits"].list(10)]
    return node, (rows, words, messages), images, reps


def job_orbit_closure_v1_m64():
    """The anchor of the orbit closure: the closure it replaced (lab/orbit_closure_v1.py: a
    search over the words, 16-bit table lookups, a dict of the words reached)."""
    from lab import orbit_closure_v1

    _, (_, words, _), images, reps = _rm26_orbit_inputs()
    return lambda: f"orbit sizes {orbit_closure_v1.orbits(words, images, 64, reps)[0]}"


def job_orbit_closure_m64():
    from kernelbounds.checker.rules import orbits

    node, (rows, words, messages), images, reps = _rm26_orbit_inputs()

    def run():
        action = orbits.check_automorphisms(node, images, words, (rows, messages))
        owner = [-1] * action.space
        return f"orbit sizes {[orbits.closure(action.index_of(r), action.maps, owner, t) for t, r in enumerate(reps)]}"

    return run


def job_check_sum_m128_n3():
    return _check("lower-sum-position-independent-m128-n3.json")


def job_check_sum_m256_n3():
    return _check("lower-sum-position-independent-m256-n3.json")


def job_check_level_families():
    """Every committed level-family certificate (upper-*.json); the target is per file."""
    from kernelbounds.checker import check_file

    paths = sorted(CERTS.glob("upper-*.json"))

    def run():
        verdicts = [check_file(str(p)) for p in paths]
        slow = max(verdicts, key=lambda v: v.seconds)
        bad = [Path(v.path).name for v in verdicts if not v.ok]
        return f"{len(paths)} files, {'all valid' if not bad else 'NOT VALID: ' + ' '.join(bad)}; slowest {Path(slow.path).name} in {slow.seconds:.2f} s"

    return run


def job_check_explicit_m8():
    return _check("explicit-head-m08-n3-r37.json")


def job_worst_error_m8():
    from kernelbounds.upperbounds import generalheads

    head = generalheads.from_tables(json.loads((ROOT / "kernelbounds" / "data" / "heads" / "m08-n3-r37.json").read_text()))

    def run():
        found = generalheads.worst_error(head)
        return f"worst error {found[0] if found else None} (generator: Dinkelbach over the extreme-class inputs)"

    return run


def _central_search(m: int, cycles: list[tuple[int, ...]], t: int):
    from kernelbounds.upperbounds import centralsearch, symmetric

    a = symmetric.Ansatz(m, symmetric.from_cycles(m, cycles), t)

    def run():
        res = centralsearch.search(a, 3, seconds=3600)
        found = f"worst error {float(res.found.worst_error):.6f}" if res.found else "NOT FOUND"
        return f"rank {a.rank}, {res.iterations} alternations, {found}"

    return run


def job_central_search_m6():
    """The anchor of the m = 8 search: the same search at m = 6, rank 4, pi = (012)(345), t = 1."""
    return _central_search(6, [(0, 1, 2), (3, 4, 5)], 1)


def job_central_search_m8():
    return _central_search(8, [(0, 1, 2, 3, 4, 5, 6)], 0)


def job_check_l1_m10():
    return _check("explicit-head-m10-n3-r10.json")


def job_check_l1_m11():
    return _check("explicit-head-m11-n3-r12.json")


def _l1_search(m: int, rank: int, seed: int):
    from kernelbounds.upperbounds import l1relaxation

    def run():
        res = l1relaxation.search(m, rank, seed=seed)
        found = f"worst error {float(res.found.worst_error):.6f}" if res.found else "NOT FOUND"
        return f"rank {rank}, seed {seed}, {res.kernel_steps} gradient steps, {found}"

    return run


def job_l1_search_m6():
    """The L1 relaxation at m = 6, rank 4 (seed 1); anchor: the central search at the same m and rank."""
    return _l1_search(6, 4, 1)


def job_l1_search_m8():
    """The L1 relaxation at m = 8, rank 6 (seed 1, the committed head); anchor: the central search at
    m = 8 (rank 7, the 7-cycle: the least rank it closes there)."""
    return _l1_search(8, 6, 1)


def job_check_symmetric_m8():
    return _check("explicit-head-m08-n3-r7.json")


def job_check_symmetric_m9():
    return _check("explicit-head-m09-n3-r12.json")


def job_farkas_m4_n8():
    from kernelbounds.lowerbounds import rankonefarkas

    def run():
        cert = rankonefarkas.farkas(4, 8)
        return f"{len(cert.multipliers)} exact multipliers (HiGHS vertex, FLINT null space)" if cert else "no certificate"

    return run


def job_families_m20():
    """Every U4 level family at m = 20, n = 3 over 2 worker processes (their CPU is counted)."""
    from kernelbounds.upperbounds.levelfamily import families as lf_families, verdicts as lf_verdicts

    fams = lf_families.families() + lf_families.families(nonnegative=True)

    def run():
        rs = lf_verdicts.solve_families(fams, 20, 3, processes=2)
        return " ".join(f"{r.found.family.name}:{r.rank}" for r in rs)

    return run


def job_evaluate_m24_rank64():
    """A random nonnegative rank-64 head (values v(z) = z) on the m = 24, n = 3 family (13.3 M inputs)."""
    import numpy as np

    from kernelbounds.heads.evaluate import evaluate_family
    from kernelbounds.heads.inputs import load_family
    from kernelbounds.heads.tables import TableHead

    fam = load_family(json.loads((CERTS / "lower-position-independent-m24-n3.json").read_text()))
    tokens = fam.tokens()
    bits = np.array([[(x >> i) & 1 for i in range(24)] for x in tokens], dtype=float)
    rng = np.random.default_rng(0)
    head = TableHead.from_arrays(rng.random((len(tokens), 64)), rng.random((len(tokens), 64)), bits, (bits, np.full(len(tokens), -0.25)), tokens=tokens, m=24)

    def run():
        r = evaluate_family(head, fam, progress=False)
        return f"{r.inputs} inputs, {r.rechecked} exact re-checks, {r.failures} failures, kernel rank {r.kernel_rank}"

    return run


def _random_head(m: int, r: int = 64, seed: int = 0):
    """A random nonnegative rank-r head on all 2^m tokens, values v(z) = z."""
    import numpy as np

    from kernelbounds.heads.tables import TableHead

    T = 2**m
    bits = ((np.arange(T)[:, None] >> np.arange(m)) & 1).astype(float)
    rng = np.random.default_rng(seed)
    return TableHead.from_arrays(rng.random((T, r)), rng.random((T, r)), bits, (bits, np.full(T, -0.25)), m=m)


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _every_input(m: int, ns=(3,)):
    """Every input of length n over {0,1}^m through the extreme-class route (Family.all)."""
    from kernelbounds.heads.evaluate import evaluate_family
    from kernelbounds.heads.inputs import Family

    head = _random_head(m)

    def run():
        out = [evaluate_family(head, Family.all(m, n), progress=False) for n in ns]
        r = out[-1]
        return (f"n = {','.join(map(str, ns))}: {r.inputs} inputs at n = {ns[-1]}, worst error {float(r.worst_error):.4f}, "
                f"{r.failures} failing classes, {r.rechecked} classes exact, peak {_peak_mb():.0f} MB")

    return run


def job_every_input_listing_m7():
    """Anchor: all 2^21 inputs of m = 7, n = 3 listed and streamed (the route before Family.all was counted, not listed)."""
    from itertools import product

    from kernelbounds.heads.evaluate import evaluate_family
    from kernelbounds.heads.inputs import Family

    head = _random_head(7)
    inputs = tuple(product(range(2**7), repeat=3))
    fam = Family(7, 3, "all", len(inputs), None, _listed=inputs)

    def run():
        r = evaluate_family(head, fam, progress=False)
        return f"{r.inputs} inputs listed, {r.rechecked} exact re-checks, worst error {float(r.worst_error):.4f}, peak {_peak_mb():.0f} MB"

    return run


def job_every_input_m7():
    return _every_input(7)


def job_every_input_m8():
    return _every_input(8)


def job_every_input_m8_n3_8():
    return _every_input(8, tuple(range(3, 9)))


def job_every_input_m12():
    return _every_input(12)


def job_check_tiny():
    """Anchor for the work-bomb row: checking a tiny valid certificate."""
    from kernelbounds.checker import check_file

    path = CERTS / "transcript-q3-s4.json"
    return lambda: f"code {int(check_file(str(path)).code)}"


def job_work_bombs():
    """Every work bomb of lab/hostile.py, refused by the work estimate (< 1 s each)."""
    from kernelbounds.checker import check_bytes
    from lab.hostile import work_bombs

    bombs = [data for _, data, _ in work_bombs()]

    def run():
        times, codes = [], set()
        for data in bombs:
            t0 = time.perf_counter()
            codes.add(int(check_bytes(data).code))
            times.append(time.perf_counter() - t0)
        return f"{len(times)} bombs, exit codes {sorted(codes)}, slowest refusal {max(times):.3f} s"

    return run


# ----------------------------------------------------------------- the table

# (job, label, target, anchor job or None, shown only with --all)
ROWS = [
    ("check_tiny", "check transcript-q3-s4.json (anchor for the work bombs)", "-", None, False),
    ("every_input_listing_m7", "evaluate all inputs m = 7, n = 3, rank 64: listed and streamed (anchor)", "-", None, False),
    ("every_input_m7", "evaluate --all m = 7, n = 3, rank 64: extreme-class route", "-", "every_input_listing_m7", False),
    ("every_input_m8", "evaluate --all m = 8, n = 3, rank 64: extreme-class route (16.7 M inputs)", "< 10 s, 500 MB", "every_input_listing_m7", False),
    ("every_input_m8_n3_8", "evaluate --all m = 8, n = 3..8, rank 64 (six evaluations)", "-", "every_input_m8", False),
    ("every_input_m12", "evaluate --all m = 12, n = 3, rank 64 (2^36 inputs)", "minutes", "every_input_m8", True),
    ("work_bombs", "check: refuse every work bomb of lab/hostile.py, total", "< 1 s each", "check_tiny", False),
    ("classes_literal_m64_n4", "U2 level classes m = 64, n = 4: literal Fraction loop (anchor)", "-", None, False),
    ("classes_generator_m64_n4", "U2 level classes m = 64, n = 4: generator, integers", ">= 40x faster", "classes_literal_m64_n4", False),
    ("classes_checker_m64_n4", "U2 level classes m = 64, n = 4: checker, integers", ">= 40x faster", "classes_literal_m64_n4", False),
    ("classes_extreme_m64_n4", "U2 level classes m = 64, n = 4: extreme classes only", "-", "classes_literal_m64_n4", False),
    ("exhaustive_m4_n3", "U2 m = 4, n = 3: literal exhaustive evaluation (anchor)", "-", None, False),
    ("classes_m4_n3", "U2 m = 4, n = 3: by level classes", "-", "exhaustive_m4_n3", False),
    ("check_u2_m16_n4", "check construction-tensor-m16-n4.json", "< 1 s", None, False),
    ("check_u2_m64_n5", "check construction-tensor-m64-n5.json (11.2M classes)", "seconds", None, False),
    ("bare_fmpz_m12", "bare python-flint fmpz_mat rank, tensor m = 12 (anchor)", "-", None, False),
    ("bare_nmod_m12", "bare python-flint nmod_mat rank, tensor m = 12", "-", "bare_fmpz_m12", False),
    ("check_rank_m12", "check rank-tensor-m12.json", "<= 1.2x bare", "bare_fmpz_m12", False),
    ("rank_tool_m12", "rank: tensor kernel m = 12 (generator, build + FLINT)", "finishes", "bare_fmpz_m12", False),
    ("gap_histogram_3000", "gap histogram of a 3000-word code", "< 1 s", None, False),
    ("bound_m24", "lower bound search m = 24, n = 3", "seconds", None, False),
    ("check_lower_m24", "check lower bound m = 24, n = 3 (2576 words)", "seconds", None, False),
    ("check_linear_m64", "check linear-code lower bound m = 64, n = 8 (RM(2,6))", "seconds", None, False),
    ("upper_m16", "upper --search: complement level families m = 16, n = 3 (one process)", "seconds", None, False),
    ("hub_m16", "upper / bound: the hub's answer at m = 16, n = 3 (reads the committed file)", "< 1 s", "upper_m16", False),
    ("tokens_literal_26_8", "tokens of weight 8 in {0,1}^26: literal sum per support (anchor)", "-", None, False),
    ("tokens_of_weight_26_8", "tokens_of_weight(26, 8): 1,562,275 tokens", "ratio < 0.5", "tokens_literal_26_8", False),
    ("lexicode_literal_24_8_4", "lexicode m = 24, w = 8, intersections <= 4: previous implementation (anchor)", "-", None, False),
    ("lexicode_24_8_4", "lexicode m = 24, w = 8, intersections <= 4, at most 3000 words", "ratio < 0.3", "lexicode_literal_24_8_4", False),
    ("check_uniform_m64_n3", "check RM(2,6) weight 32, m = 64, n = 3 in the uniform form (anchor)", "-", None, False),
    ("check_orbit_m64_n3", "check orbit-form lower bound m = 64, n = 3 (1,828,134 words, 3 orbits)", "< 60 s", "check_uniform_m64_n3", False),
    ("orbit_closure_v1_m64", "orbit closure of RM(2,6) weight 32 (1,828,134 words, 3 permutations): the closure it replaced (anchor)", "-", None, False),
    ("orbit_closure_m64", "orbit closure of RM(2,6) weight 32: the action on message vectors (tables included), then the search over indices", "ratio < 0.3", "orbit_closure_v1_m64", False),
    ("check_sum_m128_n3", "check direct-sum lower bound m = 128, n = 3 (RM(2,6)^2: N = 3.3e12, 6 orbit multisets; THEORY L9)", "<= 1.2x anchor", "check_orbit_m64_n3", False),
    ("check_sum_m256_n3", "check direct-sum lower bound m = 256, n = 3 (RM(2,6)^4: N = 1.1e25, 15 orbit multisets)", "<= 1.5x anchor", "check_orbit_m64_n3", False),
    ("check_level_families", "check every committed level-family certificate (upper-*.json)", "each < 5 s", None, False),
    ("check_explicit_m8", "check explicit-head m = 8, n = 3, rank 37 (928 KB)", "< 60 s", None, False),
    ("check_refutation_m6", "check refutation m = 6, r = 3 (84 variables, 10,435 clauses, 1,050 LRAT lemmas; anchor)", "-", None, False),
    ("check_refutation_m8", "check the direct refutation m = 8, r = 4 (210 variables, 51,391 clauses, 1,493 LRAT lemmas)", "within the default budget", "check_refutation_m6", False),
    ("check_extension_m20", "check rank extension m = 20, r = 10 (the m = 6 base + 7 edges; base checked in the same process)", "< 5 s", "check_refutation_m6", False),
    ("worst_error_m8", "exact worst error of that head (generator)", "-", None, False),
    ("check_symmetric_m8", "check explicit-head m = 8, n = 3, rank 7 (the 7-cycle head, integer tables)", "< 60 s", "check_explicit_m8", False),
    ("check_symmetric_m9", "check explicit-head m = 9, n = 3, rank 12 (the 9-cycle head, t = 3, 4.5 MB)", "< 60 s", "check_symmetric_m8", False),
    ("central_search_m6", "central search m = 6, n = 3, rank 4, pi = (012)(345) (anchor)", "-", None, True),
    ("central_search_m8", "central search m = 8, n = 3, rank 7, pi = (0123456): find, rationalise, decide", "< 30 min", "central_search_m6", True),
    ("check_l1_m10", "check explicit-head m = 10, n = 3, rank 10 (the L1 relaxation's head, packed readout, 3.1 MB)", "< 30 s", "check_symmetric_m9", False),
    ("check_l1_m11", "check explicit-head m = 11, n = 3, rank 12 (the L1 relaxation's head, packed readout, 11.8 MB)", "< 5x anchor (4x the entries, rank 12 against 10)", "check_l1_m10", False),
    ("l1_search_m6", "L1 relaxation m = 6, n = 3, rank 4, seed 1: kernel, readout LPs, exact decision", "< central search", "central_search_m6", True),
    ("l1_search_m8", "L1 relaxation m = 8, n = 3, rank 6, seed 1 (the committed head)", "< central search", "central_search_m8", True),
    ("farkas_m4_n8", "rank-one Farkas certificate m = 4, n = 8", "seconds", None, False),
    ("check_upper_m32_n3", "check upper-any-m32-n3.json, the one-block level family (anchor)", "-", None, False),
    ("check_multiblock_m32", "check upper-multiblock-any-m32-n3.json (THEORY U8: 289 box points, 49 terms, class pairs by the extremes per total)", "< 1 s", "check_upper_m32_n3", False),
    ("exact_check_multiblock_m16", "exact class-pair decision of the stored m = 16 multi-block answer (generator; anchor)", "-", None, False),
    ("search_multiblock_m16", "multi-block search m = 16, n = 3 at the stored blocks (mixed-integer LP, exact decision)", "< 120 s", "exact_check_multiblock_m16", False),
    ("prune_multiblock_m32", "multi-block seed and prune m = 32, n = 3 (144 candidate terms, one scaled LP per step, g symmetric)", "< 30 s", "exact_check_multiblock_m16", True),
    ("exact_check_m32_n3", "exact extreme-class check of the m = 32, n = 3 answer (anchor)", "-", None, False),
    ("search_m32_n3", "prefix search m = 32, n = 3 (signed)", "<= 1,000,000", "exact_check_m32_n3", False),
    ("exact_check_m64_n3", "exact extreme-class check of the m = 64, n = 3 answer (anchor)", "-", None, False),
    ("search_m64_n3", "prefix search m = 64, n = 3 (signed)", "< 300 s, rank < 2^40", "exact_check_m64_n3", False),
    ("search_nonnegative_m64_n3", "prefix search m = 64, n = 3 (g >= 0)", "< 300 s, rank < 2^43", "exact_check_m64_n3", False),
    ("literal_classes_m64_n3", "the m = 64, n = 3 answer over all C(67, 3) classes, Fractions (anchor)", "-", None, False),
    ("check_upper_m64_n3", "check upper-any-m64-n3.json (LF3x, 2145 extreme classes)", "< 60 s", "literal_classes_m64_n3", False),
    ("exact_check_m256_n3", "exact extreme-class check of the m = 256, n = 3 signed answer (generator; anchor)", "-", None, False),
    ("check_upper_m256_n3", "check upper-any-m256-n3.json, the largest-m upper certificate (LF3x, 33,153 extreme classes)", "< 10 s", "exact_check_m256_n3", False),
    ("index_lookup", "a process reading the shipped INDEX, one entry (anchor)", "-", None, False),
    ("bound_cli_m64_n3", "bound --m 64 --n 3, a fresh process, installed package (index + COMPUTED lookup)", "< 2 s", "index_lookup", False),
    ("table_m4_64", "table --m 4..64 --n 3..8 (one process; the hub)", "< 120 s", None, True),
    ("families_m20", "upper: every U4 level family m = 20, n = 3 (least rank, 2 processes)", "< 300 s", None, True),
    ("evaluate_m24_rank64", "evaluate: rank-64 head on the m = 24, n = 3 family (13.3 M inputs)", "< 120 s", None, True),
    ("sympy_rank_m7", "rank: sympy Matrix.rank, tensor m = 7", "-", "bare_fmpz_m12", True),
    ("numpy_float_rank_m12", "rank: numpy float matrix_rank, tensor m = 12 (not exact)", "-", "bare_fmpz_m12", True),
]


# ----------------------------------------------------------------- the complement basis at scale


def _stored(m: int, n: int):
    from kernelbounds.upperbounds import replay

    return replay.stored(m, n)


def job_check_upper_m32_n3():
    """The anchor of the multi-block check: the one-block level family at m = 32 (LF3x)."""
    return _check("upper-any-m32-n3.json")


def job_check_multiblock_m32():
    return _check("upper-multiblock-any-m32-n3.json")


def job_exact_check_multiblock_m16():
    """The exact class-pair decision of the stored m = 16 answer (generator): the search's anchor."""
    from kernelbounds.upperbounds import multiblock

    fam = multiblock.stored(16, 3, False)
    return lambda: f"rank {multiblock.decide(fam.blocks, dict(fam.g), 3).rank} (decide)"


def job_search_multiblock_m16():
    """The mixed-integer LP at the stored answer's blocks, then the exact decision."""
    from kernelbounds.upperbounds import multiblock

    blocks = multiblock.stored(16, 3, False).blocks
    return lambda: f"rank {multiblock.search(blocks, 3, False).rank} at blocks {blocks}"


def job_prune_multiblock_m32():
    """Seed and prune at m = 32 (16+16, cost cap 400,000), then the exact decision."""
    from kernelbounds.upperbounds import multiblock

    return lambda: f"rank {multiblock.seeded(32, 3, False, 400_000).rank}"


def job_exact_check_m32_n3():
    """The exact class check alone (extreme classes) on the m = 32 answer: the anchor of the search."""
    from kernelbounds.upperbounds import complementbasis

    g = _stored(32, 3).g
    return lambda: f"worst error {float(complementbasis.verdict(g, 32, 3).worst):.6f} (complementbasis.verdict, 561 classes)"


def job_exact_check_m64_n3():
    from kernelbounds.upperbounds import complementbasis

    g = _stored(64, 3).g
    return lambda: f"worst error {float(complementbasis.verdict(g, 64, 3).worst):.6f} (complementbasis.verdict, 2145 classes)"


def _search(m: int, n: int, nonnegative: bool = False):
    from kernelbounds.upperbounds import prefix

    def run():
        found = prefix.search(m, n, nonnegative=nonnegative)
        return f"rank {found.rank:,} = 2^{found.rank.bit_length() - 1}+, support {list(found.support)}, {found.stats['nodes']} prefixes, {found.stats['lps']} LPs"

    return run


def job_search_m32_n3():
    return _search(32, 3)


def job_search_m64_n3():
    return _search(64, 3)


def job_search_nonnegative_m64_n3():
    return _search(64, 3, nonnegative=True)


def job_literal_classes_m64_n3():
    """The anchor of the m = 64 check: every one of the C(67, 3) level classes (O(m^3)) of the
    committed signed m = 64 answer, one Fraction per class, as LF3 would."""
    g = _stored(64, 3).g
    eps = _stored(64, 3).eps
    h = [sum(v * comb(x, j) for j, v in g.items()) for x in range(65)]

    def run():
        worst = Fraction(0)
        for p in range(65):
            for levels in combinations_with_replacement(range(p + 1), 2):
                ls = (p, *levels)
                w = [h[p - l] for l in ls]
                worst = max(worst, abs(sum(wi * (l - Fraction(1, 2) + eps) for wi, l in zip(w, ls, strict=True)) / sum(w) - min(ls)))
        return f"worst error {float(worst):.6f} over 47,905 classes"

    return run


def job_check_upper_m64_n3():
    return _check("upper-any-m64-n3.json")


def job_exact_check_m256_n3():
    """The anchor of the largest upper certificate's check: the generator's exact extreme-class
    check (complementbasis.verdict) of the same g, integers only, no parsing."""
    from kernelbounds.upperbounds import extension, complementbasis

    g = extension.stored(256, 3).g
    return lambda: f"worst error {float(complementbasis.verdict(g, 256, 3).worst):.6f} (complementbasis.verdict, 33,153 classes)"


def job_check_upper_m256_n3():
    return _check("upper-any-m256-n3.json")


def _cpu() -> float:
    """CPU seconds of this process and of its finished (waited-for) child processes, so that a
    job that runs worker processes (a process pool, joined on exit) is not undercounted."""
    try:
        import resource
    except ImportError:  # not on a Unix
        return time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def run_job(name: str) -> dict:
    """Set up, then time the job's run (CPU and wall seconds of that region only)."""
    run = globals()[f"job_{name}"]()
    cpu, wall = _cpu(), time.perf_counter()
    detail = run()
    return {"cpu": _cpu() - cpu, "wall": time.perf_counter() - wall, "detail": detail}


def measure(name: str, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, __file__, "--job", name], capture_output=True, text=True)
        if out.returncode != 0:
            return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
        runs.append(json.loads(out.stdout))
    cpu = [r["cpu"] for r in runs]
    return {"median": statistics.median(cpu), "lo": min(cpu), "hi": max(cpu), "wall": statistics.median(r["wall"] for r in runs), "detail": runs[-1]["detail"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--all", action="store_true", help="also the slow or illustrative rows")
    ap.add_argument("--only", default="", help="rows whose job name contains this (anchors are added)")
    ap.add_argument("--job", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.job:
        print(json.dumps(run_job(args.job)))
        return 0
    rows = [r for r in ROWS if (args.all or not r[4]) and args.only in r[0]]
    wanted = {r[0] for r in rows} | {r[3] for r in rows if r[3]}
    results = {name: measure(name, args.repeats) for name in [r[0] for r in ROWS if r[0] in wanted]}
    print(f"CPU seconds of the measured region, {args.repeats} runs each in a fresh process; ratio = median / anchor median")
    print("| benchmark | target | median s | spread s | wall s | anchor | ratio | detail |")
    print("|---|---|---:|---:|---:|---|---:|---|")
    for name, label, target, anchor, _ in rows:
        r = results[name]
        if "error" in r:
            print(f"| {label} | {target} | - | - | - | - | - | FAILED: {r['error']} |")
            continue
        ratio = ""
        if anchor and "median" in results[anchor]:
            a = results[anchor]["median"]
            ratio = f"{r['median'] / a:.3f}" if r["median"] >= a else f"1/{a / r['median']:.1f}"
        print(f"| {label} | {target} | {r['median']:.3f} | {r['lo']:.3f}..{r['hi']:.3f} | {r['wall']:.2f} | {anchor or ''} | {ratio} | {r['detail']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
