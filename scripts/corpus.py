"""Regenerate tests/corpus/: valid, incorrect, malformed and over-limit certificates,
each described in tests/corpus/MANIFEST.json (attack, expected exit code and pointer).

Run: .venv/bin/python scripts/corpus.py   (deterministic; the test suite checks the files)
Files of the corpus it does not produce (made by hand, each with its MANIFEST line) are kept.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # lab/ lives at the repository root, outside the package

from kernelbounds.upperbounds import constructions
from kernelbounds.lowerbounds import assemble
from kernelbounds.lowerbounds import certify
from kernelbounds import kernelrank as rank
from kernelbounds.lowerbounds import transcript
from kernelbounds.certificate import canonical_json, write_atomic
from kernelbounds.lowerbounds.codes import paley

ROOT = Path(__file__).resolve().parents[1] / "tests" / "corpus"


def main() -> None:
    tensor = constructions.certificate(constructions.tensor(4, 3))
    softmax = constructions.certificate(constructions.softmax(3, 3))
    rank1 = constructions.certificate(constructions.rank1(4, 2))
    lower = certify.certificate(assemble.assemble(paley.paley(23).prefix(10), 3), listed=True)
    lower_rule = certify.certificate(assemble.assemble(paley.paley(11), 4, "position-dependent"))
    rk = rank.certificate(rank.named_kernel("inner", 6), 6, "inner")
    tr = transcript.certificate(3, 2)
    entries: list[tuple[str, str, object, int, str, str]] = []  # (dir, name, doc or bytes, code, pointer, attack)

    def add(folder, name, doc, code, pointer, attack):
        entries.append((folder, name, doc, code, pointer, attack))

    def edit(doc, fn):
        doc = copy.deepcopy(doc)
        fn(doc)
        return doc

    for name, doc in [("tensor-m4-n3", tensor), ("softmax-m3-n3", softmax), ("rank1-m4-n2", rank1), ("lower-paley10-listed", lower), ("lower-paley11-posdep", lower_rule), ("rank-inner-m6", rk), ("transcript-q3-s2", tr)]:
        add("correct", name, doc, 0, "", "none: a valid certificate")

    add("incorrect", "lower-bound-one-too-high", edit(lower, lambda d: d["claims"].update(bound=9)), 1, "/claims/bound", "claims r >= 9 where the data prove r >= 8")
    add("incorrect", "lower-pair-too-close", edit(lower, lambda d: d["code"]["words"].__setitem__(1, d["code"]["words"][0][:-1] + ("1" if d["code"]["words"][0][-1] == "0" else "0"))), 1, "/code/words/1", "word 1 differs from word 0 in one bit: a gap of 1 has no chain")
    add("incorrect", "lower-chain-gap-1", edit(lower, lambda d: d["schedules"][0].update(levels=[0, 1, 6])), 1, "/schedules/0/levels/1", "a chain step of gap 1 (L1 gives no factor)")
    add("incorrect", "lower-witness-count", edit(lower, lambda d: d["claims"].update(witness_inputs=189)), 1, "/claims/witness_inputs", "the family size is off by one")
    add("incorrect", "lower-missing-input", edit(lower, lambda d: (d["witness"]["inputs"].pop(), d["claims"].update(witness_inputs=189))), 1, "/claims/witness_inputs", "one witness input dropped (and the count adjusted)")
    add("incorrect", "lower-min-product", edit(lower, lambda d: d["claims"].update(min_product=6)), 1, "/claims/min_product", "claims a larger least chain product")
    negative = {"f0": ["1", "0", "0"], "f1": ["1/5", "4/5", "-1"], "g0": ["1", "1", "0"], "g1": ["1", "0", "0"]}
    add("incorrect", "u2-negative-factor", edit(tensor, lambda d: d["head"]["kernel"].update(negative) or d["claims"].update(feature_rank=81)), 1, "/head/kernel/f1/2", "a U2 factor with a negative entry (the Gram matrix unchanged) while claiming nonnegative features")
    add("incorrect", "u3-tampered-exponent", edit(softmax, lambda d: d["head"]["kernel"].update(exp_beta="3")), 1, "/claims/worst_error", "exp(beta) = 3 instead of 5: the worst error changes (and is >= 1/2)")
    add("incorrect", "u3-tampered-score-matrix", edit(softmax, lambda d: d["head"]["kernel"]["W_Q"][0].__setitem__(1, -1)), 1, "/head/kernel", "one entry of W_Q changed: the head is no longer level-determined")
    add("incorrect", "u2-worst-error-understated", edit(tensor, lambda d: d["claims"].update(worst_error="1/4")), 1, "/claims/worst_error", "claims worst error 1/4 instead of 2/7")
    add("incorrect", "u1-at-length-3", edit(rank1, lambda d: d.update(n=3) or d["claims"].update(worst_error="4/3")), 1, "/claims/worst_error", "rank 1 at length 3: the true worst error 4/3 is >= 1/2")
    add("incorrect", "u2-feature-rank", edit(tensor, lambda d: d["claims"].update(feature_rank=15)), 1, "/claims/feature_rank", "claims 15 features instead of 2^4")
    add("incorrect", "rank-one-more", edit(rk, lambda d: d["claims"].update(rank=7)), 1, "/claims/rank", "claims rank 7 for the rank-6 inner-product kernel")
    add("incorrect", "rank-not-prime", edit(rk, lambda d: d["lower"].update(prime=2**31 + 1)), 1, "/lower/prime", "the modulus is not prime")
    add("incorrect", "rank-singular-minor", edit(rk, lambda d: d["lower"]["rows"].__setitem__(0, "000000")), 1, "/lower", "the minor uses the zero row")
    add("incorrect", "transcript-bits", edit(tr, lambda d: d["claims"].update(bits=6)), 1, "/claims/bits", "claims 6 bits where ceil(log2 27) = 5")
    add("incorrect", "transcript-moved-query", edit(tr, lambda d: d["inputs"][4].__setitem__(0, d["inputs"][4][5])), 1, "/inputs/4", "a scored query token changes in one input")

    text = canonical_json(tensor)
    add("malformed", "truncated", text[: len(text) // 2].encode(), 2, "", "truncated JSON")
    add("malformed", "wrong-type-m", edit(tensor, lambda d: d.update(m="4")), 2, "/m", "m is a string")
    add("malformed", "float-rational", edit(tensor, lambda d: d["claims"].update(worst_error=0.2857)), 2, "/claims/worst_error", "a float where a rational string is required")
    add("malformed", "unknown-version", edit(tensor, lambda d: d.update(version=2)), 2, "/version", "format version 2")
    add("malformed", "unknown-kind", edit(tensor, lambda d: d.update(kind="upper-bound-ish")), 2, "/kind", "an unknown certificate kind")
    add("malformed", "missing-field", edit(lower, lambda d: d.pop("schedules")), 2, "/schedules", "a required field is missing")
    add("malformed", "unknown-field", edit(lower, lambda d: d["claims"].update(bonus=1)), 2, "/claims/bonus", "an unknown field")
    add("malformed", "bad-token", edit(lower, lambda d: d["code"]["words"].__setitem__(0, "012")), 2, "/code/words/0", "a token with a '2' and the wrong length")
    add("malformed", "duplicate-key", b'{"format": "kernelbounds-certificate", "version": 1, "version": 1, "kind": "rank"}', 2, "", "a duplicated key")
    add("malformed", "not-utf8", b"\xff\xfe\x00", 2, "", "not UTF-8")
    add("limits", "absurd-m", edit(tensor, lambda d: d.update(m=10**9)), 3, "/m", "m = 10^9 is over the limit max_m")
    add("limits", "absurd-n", edit(lower, lambda d: d.update(n=10**6)), 3, "/n", "n = 10^6 is over the limit max_n")
    add("limits", "too-many-classes", edit(tensor, lambda d: d.update(m=4000, n=3)), 3, "/m", "C(m+n, n) level classes over max_level_classes")
    add("limits", "rank-matrix-too-large", edit(rk, lambda d: d.update(m=30)), 3, "/m", "a 2^30 x 2^30 minor")

    # the defect classes of the checker-hardening review
    from lab import hostile

    tr4 = transcript.certificate(3, 4)
    add("correct", "transcript-q3-s4", tr4, 0, "", "none: a valid certificate (answers reach s = 4)")
    add("incorrect", "transcript-s-too-small", edit(tr4, lambda d: d.update(s=1)), 1, "/inputs/2", "s = 1 although answers reach 4 (was a false accept: s was never checked)")
    items = {name: data for name, data, _ in hostile.all_items()}
    add("correct", "derived-100000-digits", items["derived-100000-digits-valid"], 0, "", "a valid lower bound whose L3 threshold has 10^5 digits (was exit 4: formatting)")
    add("incorrect", "derived-100000-digits-bound", items["derived-100000-digits-bound-too-high"], 1, "/claims/bound", "bound one too high; the message shows the 10^5-digit threshold abbreviated (was exit 4)")
    add("correct", "odd-label-newline", items["odd-label-0"], 0, "", "a code name with a newline and a forged VALID line: printed escaped on one line")
    add("malformed", "odd-key-ansi", items["odd-key-1"], 2, "/claims/\x1b[2J\x1b[1;1HVALID cleared", "an unknown key with ANSI escapes (the pointer is escaped when printed)")
    add("malformed", "odd-kind-surrogate", items["odd-kind-2"], 2, "/kind", "a kind with a lone surrogate (printing crashed)")
    add("malformed", "claim-int-100000-digits", items["claim-int-100000-digits"], 2, "", "a 10^5-digit JSON integer")
    add("malformed", "claim-rational-100000-digits", items["claim-rational-100000-digits"], 2, "/claims/worst_error", "a 10^5-digit rational")
    add("malformed", "nested-100000", items["nested-lists-100000"], 2, "", "100,000 nested arrays")
    for name, data, expected in hostile.work_bombs():
        if expected == hostile.LIMIT:
            add("limits", f"bomb-{name}", data, 3, "", f"work bomb ({name}): refused by the work estimate before any work")

    _level_family(add, edit)
    _level_family_at_scale(add, edit)
    guarded = []  # the runtime guard, under smaller limits (MANIFEST "limits")
    add("limits", "bomb-level-family-lcm-heights", hostile.level_family_lcm_bomb(), 3, "", "17 differences with distinct 600-digit denominators (short strings, but w(d) has the height of their lcm): refused by the work estimate")
    certs = ROOT.parents[1] / "certificates"
    for name, source, limit, attack in (
        ("guard-time-limit", "construction-tensor-m64-n5.json", {"time_limit": 1}, "a valid file within the estimate (about 2 s of CPU) checked under time_limit = 1: the runtime guard stops it at 1 s (RLIMIT_CPU)"),
        ("guard-memory-limit", "rank-tensor-m12.json", {"memory_limit": 52428800}, "a valid 4096 x 4096 minor checked under memory_limit = 50 MiB: the runtime guard (RLIMIT_AS) gives exit 3"),
    ):
        add("limits", name, json.loads((certs / source).read_text()), 3, "", attack)
        guarded.append((f"limits/{name}.json", limit))
    _minimality(add, edit)
    _rank_extension(add, edit)
    _direct_sum(add, edit)
    _multiblock(add, edit)
    _explicit_head_packed(add, edit)

    # Files of the corpus this script does not produce (added by hand with their MANIFEST
    # lines) are kept with their lines: regenerating never loses a test file.
    old = ROOT / "MANIFEST.json"
    manifest = json.loads(old.read_text()) if old.exists() else {}
    produced = {f"{folder}/{name}.json" for folder, name, *_ in entries}
    kept = sorted(k for k in manifest if k not in produced and (ROOT / k).exists())
    manifest = {k: manifest[k] for k in kept}
    for folder, name, doc, code, pointer, attack in entries:
        (ROOT / folder).mkdir(parents=True, exist_ok=True)
        path = ROOT / folder / f"{name}.json"
        if isinstance(doc, bytes):
            path.write_bytes(doc)
        else:
            write_atomic(path, canonical_json(doc))
        manifest[f"{folder}/{name}.json"] = {"attack": attack, "exit": code, "pointer": pointer}
    for key, limit in guarded:
        manifest[key]["limits"] = limit
    write_atomic(ROOT / "MANIFEST.json", json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(produced)} corpus files to {ROOT}; kept {len(kept)} files it does not produce")


def _level_family(add, edit) -> None:
    """Kind level-family (format v2): one valid file of each readout and its attacks."""
    from kernelbounds.upperbounds.levelfamily import families as lf_families, verdicts as lf_verdicts

    def build(fam, m, n):
        res = lf_verdicts.solve_family(fam, m, n, prove=True)
        return lf_verdicts.certificate(res.found, res.refutations)

    free = build(lf_families.LevelFamily("complement", "free", True), 4, 3)
    affine = build(lf_families.LevelFamily("subset", "affine", False), 4, 3)
    add("correct", "level-family-free-m4-n3", free, 0, "", "none: a valid certificate (nonnegative features, free readout, minimality)")
    add("correct", "level-family-affine-m4-n3", affine, 0, "", "none: a valid certificate (subset basis, affine readout, minimality)")
    j = max(free["claims"]["support"])
    add("incorrect", "level-family-table-entry", edit(free, lambda d: d["readout"]["table"][4].__setitem__(0, "100")), 1, "/claims/worst_error", "one free readout value f_4(0) changed")
    add("incorrect", "level-family-negative-g", edit(free, lambda d: d["differences"].__setitem__(j, "-1/1000000")), 1, f"/differences/{j}", "g_j made negative while nonnegative_features stays true")
    add("incorrect", "level-family-dropped-support", edit(free, lambda d: d["claims"]["support"].pop()), 1, "/claims/support", "a support element dropped from the claims")
    add("incorrect", "level-family-value-dim", edit(free, lambda d: d["readout"].update(value_dim=d["readout"]["value_dim"] + 1)), 1, "/readout/value_dim", "the value dimension dv off by one")
    add("incorrect", "level-family-multiplier", edit(affine, lambda d: d["minimality"]["refuted"][0]["multipliers"][0].update(y="1000")), 1, "/minimality/refuted/0/multipliers", "one Motzkin multiplier changed")
    add("incorrect", "level-family-coverage", edit(affine, lambda d: d["minimality"]["refuted"].pop(0)), 1, "/minimality/refuted", "a maximal cheaper support left unrefuted")
    add("incorrect", "level-family-weight-zero", edit(affine, lambda d: d.update(differences=["0"] * (d["m"] + 1))), 1, "/differences", "every g_j = 0: w(0) = 0")
    add("malformed", "level-family-version-1", edit(free, lambda d: d.update(version=1)), 2, "/kind", "the v2 kind level-family in a file declaring version 1")
    add("malformed", "level-family-bad-basis", edit(free, lambda d: d.update(basis="power")), 2, "/basis", "an unknown feature basis")
    add("limits", "level-family-too-many-classes", edit(free, lambda d: d.update(m=4000)), 3, "", "m = 4000: the work estimate (C(m+n, n) level classes) is over work_budget")


def _level_family_at_scale(add, edit) -> None:
    """Rule LF3x: a complement-basis affine file at m = 64 checked through its
    2145 extreme classes, and its attacks."""
    from kernelbounds.upperbounds import chain

    doc = chain.explicit(64, 3).certificate()
    top = doc["claims"]["support"][-1]
    add("correct", "level-family-extreme-m64-n3", doc, 0, "", "none: the explicit nonnegative chain at m = 64 (rule LF3x)")
    add("incorrect", "level-family-extreme-worst-error", edit(doc, lambda d: d["claims"].update(worst_error="1/3")), 1, "/claims/worst_error", "LF3x: the worst error understated")
    add("incorrect", "level-family-extreme-eps", edit(doc, lambda d: d["readout"].update(eps="1/2")), 1, "/claims/worst_error", "LF3x: eps = 1/2, so some extreme class errs by >= 1/2")
    add("incorrect", "level-family-extreme-chain-broken", edit(doc, lambda d: d["differences"].__setitem__(top, "1")), 1, "/claims/worst_error", f"LF3x: g_{top} = 1, the chain's last term too small for the classes beyond its predecessor's reach")
    add("limits", "level-family-extreme-m4000", edit(doc, lambda d: d.update(m=4000)), 3, "", "m = 4000 with LF3x: the (m+1)(m+2)/2 extreme classes and the O(m^2) weights are over work_budget")


def _minimality(add, edit) -> None:
    """Kind level-family-minimality (format v2): n = 3, g >= 0, m <= 16, and its attacks."""
    from kernelbounds.upperbounds import minimality

    doc = minimality.certificate(3, True, 16)

    def bump(d):
        d["prefixes"][3]["refutation"][0]["y"] = str(int(d["prefixes"][3]["refutation"][0]["y"]) + 1)

    add("correct", "minimality-nonnegative-n3-m16", doc, 0, "", "none: a valid certificate (reach table L(k), k = 0..3, chain bound 593 at m = 16)")
    add("incorrect", "minimality-multiplier", edit(doc, bump), 1, "/prefixes/3/refutation", "one Motzkin multiplier changed: the combination is no longer >= 0")
    add("incorrect", "minimality-reach-too-low", edit(doc, lambda d: d["prefixes"][2].update(reach=8)), 1, "/prefixes/2/refutation/2/class/0", "L(2) claimed 8: the refutation uses a class with p = 10 > 8 + 1")
    add("incorrect", "minimality-bound", edit(doc, lambda d: d["claims"]["chain_bounds"][15].update(bound=594)), 1, "/claims/chain_bounds/15/bound", "the chain bound at m = 16 one too high")
    add("incorrect", "minimality-chain-link", edit(doc, lambda d: d["claims"]["chain_bounds"][15].update(chain=[0, 1, 3, 16])), 1, "/claims/chain_bounds/15/chain/3", "a chain link j = 16 > L(3) + 1 = 15")
    add("incorrect", "minimality-witness", edit(doc, lambda d: d["prefixes"][3]["witness"].__setitem__(0, "1000000000")), 1, "/prefixes/3/witness", "a witness that no longer solves at its reach")
    add("malformed", "minimality-basis", edit(doc, lambda d: d.update(basis="subset")), 2, "/basis", "the subset basis (only the complement-basis affine family is covered)")
    add("limits", "minimality-max-m", edit(doc, lambda d: d["claims"].update(max_m=5000)), 3, "", "max_m = 5000: the work estimate (the dynamic program, max_m^3 steps) is over work_budget")




def _rank_extension(add, edit) -> None:
    """Kind rank-extension (THEORY U7+): the base is named by sha256 and resolved in the
    certificate's own folder, so the valid file names the valid m = 5 refutation of correct/
    and the rejected-base file names an invalid refutation of incorrect/."""
    from kernelbounds.lowerbounds import rankextension

    def named(folder: str, name: str) -> dict:
        return json.loads((ROOT / folder / f"{name}.json").read_text())

    good = rankextension.extend(named("correct", "rank-refutation-m5-n3"), "rank-refutation-m5-n3.json", 1).certificate()
    add("correct", "rank-extension-m7-n3", good, 0, "", "none: the m = 5, rank-2 refutation plus the edge {5,6} refutes rank 3 at m = 7")
    add("incorrect", "rank-extension-missing-base", edit(good, lambda d: d["base"].update(sha256="0" * 64)), 1, "/base/sha256", "names a base that no file of its folder has")
    bad = rankextension.extend(named("incorrect", "rank-refutation-bound"), "rank-refutation-bound.json", 1).certificate()
    add("incorrect", "rank-extension-rejected-base", bad, 1, "/base/sha256", "names a refutation whose claimed bound is false: the base's rejection rejects the extension")
    add("malformed", "rank-extension-sha256", edit(good, lambda d: d["base"].update(sha256=d["base"]["sha256"].upper())), 2, "/base/sha256", "the sha256 in upper case: not the canonical 64 lowercase hex digits")
    add("limits", "rank-extension-25-edges", edit(good, lambda d: d.update(edges=[[5 + 2 * i, 6 + 2 * i] for i in range(25)])), 3, "/edges", "25 edges (2^25 placements per pair): over the limit of 24, refused before the base is read")



def _direct_sum(add, edit) -> None:
    """Kind direct-sum (format v2, THEORY L9): the dodecads twice at m = 48, n = 3, and its attacks."""
    from kernelbounds.lowerbounds import directsum

    doc = directsum.direct_sum((("golay-dodecads", 2),), 3).certificate()
    orbit = "/components/0/claims/orbits/0"

    def gap_one(d):  # a second component: the weight-2 words of length 3, pairwise at gap 1
        d["components"].append({"m": 3, "copies": 1, "code": {"name": "weight-2 words of length 3", "words": ["110", "101", "011"]},
                                "symmetry": {"permutations": [[1, 2, 0]]},
                                "claims": {"code_size": 3, "orbits": [{"representative": "110", "size": 3, "gaps": [{"gap": 1, "count": 2}]}]}})
        d["m"] = 51

    add("correct", "direct-sum-dodecads2-m48-n3", doc, 0, "", "none: a valid direct sum (the dodecads twice, r >= 467 at m = 48; THEORY L9)")
    add("incorrect", "direct-sum-histogram-one-off", edit(doc, lambda d: d["components"][0]["claims"]["orbits"][0]["gaps"][0].update(
        count=d["components"][0]["claims"]["orbits"][0]["gaps"][0]["count"] + 1)), 1, f"{orbit}/gaps/0/count", "a component's row histogram one off")
    add("incorrect", "direct-sum-orbit-size", edit(doc, lambda d: d["components"][0]["claims"]["orbits"][0].update(
        size=d["components"][0]["claims"]["orbits"][0]["size"] + 1)), 1, f"{orbit}/size", "a component's orbit size one too large")
    add("incorrect", "direct-sum-k-too-large", edit(doc, lambda d: d["claims"].update(k=3)), 1, "/claims/bound", "k = 3 with the bound of k = 1 (at k = 3 the least r is smaller)")
    add("incorrect", "direct-sum-gap-one", edit(doc, gap_one), 1, "/components/1/claims/orbits/0/gaps/0/gap", "a component that is not a code of gap >= 2 (weight-2 words of length 3, every pair at gap 1)")
    add("incorrect", "direct-sum-repeated-component", edit(doc, lambda d: d["components"].append(d["components"][0]) or d["components"][0].update(copies=1)), 1, "/components/1",
        "one component listed twice (it must be listed once with copies)")
    add("incorrect", "direct-sum-length", edit(doc, lambda d: d.update(m=49)), 1, "/m", "m is not the sum of the components' lengths times copies")
    add("incorrect", "direct-sum-not-automorphism", edit(doc, lambda d: d["components"][0]["symmetry"]["permutations"][0].reverse()), 1,
        "/components/0/symmetry/permutations/0", "a component's permutation that does not map the code onto itself")
    add("malformed", "direct-sum-version-1", edit(doc, lambda d: d.update(version=1)), 2, "/kind", "the v2 kind direct-sum in a file declaring version 1")
    add("limits", "direct-sum-too-many-orbit-multisets", edit(doc, lambda d: d["components"][0]["claims"].update(orbits=d["components"][0]["claims"]["orbits"] * 700)), 3, "/components",
        "2800 claimed orbits: C(2801, 2) multisets of orbits over the limit (refused before any work)")


def _multiblock(add, edit) -> None:
    """Kind multi-block-level-family (format v2, THEORY U8): the committed m = 12 family, a
    three-block family at m = 5 (the literal route MB8 runs) and their attacks."""
    from fractions import Fraction

    from kernelbounds.upperbounds import multiblock

    m12 = multiblock.certificate(12, 3, False)
    small = multiblock.decide((1, 2, 2), {(0, 0, 0): Fraction(1), (0, 0, 1): Fraction(6), (0, 2, 0): Fraction(12), (1, 0, 0): Fraction(6)}, 3).certificate()
    add("correct", "multiblock-m12-n3", m12, 0, "", f"none: the committed two-block family at m = 12 (rank {m12['claims']['feature_rank']})")
    add("correct", "multiblock-three-blocks-m5-n3", small, 0, "", "none: blocks 1+2+2 at m = 5 (rank 5; the literal route checks every input)")
    neg = next(k for k, t in enumerate(m12["terms"]) if t["g"].startswith("-"))
    add("incorrect", "multiblock-worst-error", edit(m12, lambda d: d["claims"].update(worst_error="1/4")), 1, "/claims/worst_error", "the worst error understated")
    add("incorrect", "multiblock-eps", edit(m12, lambda d: d["readout"].update(eps="1/2")), 1, "/claims/worst_error", "eps = 1/2: the class pair X = U = 0 errs by 1/2 (and the claim no longer matches)")
    add("incorrect", "multiblock-rank", edit(m12, lambda d: d["claims"].update(feature_rank=d["claims"]["feature_rank"] - 1)), 1, "/claims/feature_rank", "the feature rank one below sum_J prod_i C(h_i, J_i)")
    add("incorrect", "multiblock-negative-g", edit(m12, lambda d: d["claims"].update(nonnegative_features=True)), 1, f"/terms/{neg}/g", "nonnegative features claimed with a negative g_J")
    add("incorrect", "multiblock-weight", edit(small, lambda d: d["terms"][0].update(g="-30")), 1, "/terms", "g_0 = -30: H(0) < 0, the kernel is not positive")
    add("incorrect", "multiblock-term-dropped", edit(m12, lambda d: d["terms"].pop()), 1, "/claims/worst_error", "the last term dropped (claims unchanged): the head no longer solves")
    add("incorrect", "multiblock-blocks-sum", edit(m12, lambda d: d.update(blocks=[d["blocks"][0], d["blocks"][1] - 1])), 1, "/blocks", "block sizes summing to 11 at m = 12")
    add("incorrect", "multiblock-degree-outside", edit(small, lambda d: d["terms"][-1].update(degrees=[2, 0, 0])), 1, "/terms/3/degrees/0", "a degree above its block size (C(x, 2) = 0 on a block of one bit)")
    add("malformed", "multiblock-unsorted", edit(m12, lambda d: d["terms"].reverse()), 2, "/terms/1/degrees", "terms not in increasing order of degrees")
    add("malformed", "multiblock-zero-g", edit(m12, lambda d: d["terms"][1].update(g="0")), 2, "/terms/1/g", "a listed term with g = 0")
    add("malformed", "multiblock-version-1", edit(m12, lambda d: d.update(version=1)), 2, "/kind", "the v2 kind in a file declaring version 1")
    add("limits", "multiblock-box-m64", edit(m12, lambda d: d.update(m=64, blocks=[1] * 64)), 3, "", "64 blocks of one bit: 2^64 box points, refused by the work estimate")



def _explicit_head_packed(add, edit) -> None:
    """The packed layout of an explicit head's readout (docs/certificate-format-v2.md, kind
    explicit-head): the committed m = 4 head (written as lists, the packed layout being legal
    at any m) packed over the lcm of its denominators (int16) and over 4 times it (int32, a
    denominator that is not the lcm), then malformed layouts (exit 2 under /head/readout,
    never 4) and tampered numbers (exit 1)."""
    import base64
    from fractions import Fraction
    from math import lcm

    from kernelbounds.upperbounds import generalheads

    head = json.loads((ROOT.parents[1] / "certificates" / "explicit-head-m04-n3-r2.json").read_text())
    F = [Fraction(x) for row in head["head"]["readout"] for x in row]
    d = lcm(*(x.denominator for x in F))

    def packed(scale: int) -> dict:
        return edit(head, lambda h: h["head"].update(readout=generalheads.pack([int(x * d * scale) for x in F], d * scale)))

    p16, p32 = packed(1), packed(4)
    assert (p16["head"]["readout"]["encoding"], p32["head"]["readout"]["encoding"]) == ("int16-le-base64", "int32-le-base64")
    S16, S32 = p16["head"]["readout"]["numerators"], p32["head"]["readout"]["numerators"]

    def readout(doc, **fields):
        return edit(doc, lambda h: h["head"]["readout"].update(fields))

    def entry(q: int, z: int, delta: int) -> str:  # S16 with the int16 numerator N(q, z) moved by delta
        data = bytearray(base64.b64decode(S16))
        at = 2 * (16 * q + z)
        data[at : at + 2] = (int.from_bytes(data[at : at + 2], "little", signed=True) + delta).to_bytes(2, "little", signed=True)
        return base64.b64encode(bytes(data)).decode("ascii")

    R, N = "/head/readout", "/head/readout/numerators"
    add("correct", "explicit-head-packed-int16-m4-n3", p16, 0, "", "none: the m = 4 rank-2 head, its readout packed as int16 over the lcm of its denominators")
    add("correct", "explicit-head-packed-int32-m4-n3", p32, 0, "", "none: the same head packed as int32 over 4 times the lcm (the denominator need not be the lcm)")
    for bits in (16, 32):  # a rank-one head at m = 1, n = 2 (w = 1) on the extreme numerators -2^(b-1), 2^(b-1) - 1
        D = 2 ** (bits - 1)
        ends = {"format": "kernelbounds-certificate", "version": 2, "kind": "explicit-head", "m": 1, "n": 2, "positions": "all",
                "head": {"phi": [["1"], ["1"]], "psi": [["1"], ["1"]], "readout": generalheads.pack([0, 0, -D, D - 1], D)},
                "claims": {"worst_error": f"1/{D}", "worst_input": {"query": "1", "others": ["1"]}, "feature_rank": 1, "value_dim": 1, "nonnegative_features": True}}
        add("correct", f"explicit-head-packed-extremes-int{bits}-m1-n2", ends, 0, "", f"none: F(1, 0) = -2^{bits - 1} / D = -1 and F(1, 1) = (2^{bits - 1} - 1) / D (D = 2^{bits - 1}), the extreme int{bits} numerators read signed: worst error 1/D")
        swapped = base64.b64encode(b"".join(base64.b64decode(ends["head"]["readout"]["numerators"])[i : i + bits // 8][::-1] for i in range(0, bits // 2, bits // 8))).decode("ascii")
        add("incorrect", f"explicit-head-packed-big-endian-int{bits}", readout(ends, numerators=swapped), 1, N, "the extreme numerators written big-endian: read little-endian, F(1, 0) is no longer -1 and the input (1, 0) errs by about 1/2")
    add("incorrect", "explicit-head-packed-numerator", readout(p16, numerators=entry(5, 6, d // 3 + 1)), 1, N, "N(5, 6) raised by D/3: some input errs by more than the claimed e (E2, named at the numerators)")
    add("incorrect", "explicit-head-packed-worst-input-numerator", readout(p16, numerators=entry(10, 10, -1)), 1, "/claims/worst_error", "N(q, q) one lower at the claimed worst input's query: its error is no longer e (E3)")
    add("incorrect", "explicit-head-packed-denominator", readout(p16, denominator=2 * d), 1, N, "the denominator doubled: the readout halves and E2 fails")
    add("incorrect", "explicit-head-packed-denominator-4000-digits", readout(p16, denominator=d * 10**3996), 1, N, "a 4000-digit denominator (the readout nearly 0): a verdict (E2), never exit 4")
    add("malformed", "explicit-head-packed-encoding", readout(p16, encoding="int8-le-base64"), 2, f"{R}/encoding", "an encoding other than int16-le-base64 and int32-le-base64")
    add("malformed", "explicit-head-packed-denominator-zero", readout(p16, denominator=0), 2, f"{R}/denominator", "denominator 0")
    add("malformed", "explicit-head-packed-denominator-negative", readout(p16, denominator=-d), 2, f"{R}/denominator", "a negative denominator (the table's sign flipped)")
    add("malformed", "explicit-head-packed-denominator-string", readout(p16, denominator=str(d)), 2, f"{R}/denominator", "the denominator as a string, not a JSON integer")
    add("malformed", "explicit-head-packed-urlsafe", readout(p16, numerators="-" + S16[1:]), 2, N, "a character outside the standard base64 alphabet ('-' of the URL-safe one)")
    add("malformed", "explicit-head-packed-line-break", readout(p16, numerators=S16[:76] + "\n" + S16[77:]), 2, N, "a line break (MIME style) in place of a character")
    add("malformed", "explicit-head-packed-one-more", readout(p16, numerators=S16 + "A"), 2, N, "one base64 character too many")
    add("malformed", "explicit-head-packed-one-fewer", readout(p16, numerators=S16[:-1]), 2, N, "one base64 character too few")
    add("malformed", "explicit-head-packed-padding", readout(p16, numerators=S16[:-2] + "=="), 2, N, "padding '==' where '=' belongs: the right length, but 1 byte short")
    add("malformed", "explicit-head-packed-int32-padding", readout(p32, numerators=S32[:-2] + "A="), 2, N, "int32: padding 'A=' where '==' belongs: the right length, but 1 byte too many")
    add("malformed", "explicit-head-packed-extra-field", readout(p16, rows=16), 2, f"{R}/rows", "an extra field beside denominator, encoding, numerators")
    add("malformed", "explicit-head-packed-missing-field", edit(p16, lambda h: h["head"]["readout"].pop("denominator")), 2, f"{R}/denominator", "the denominator missing")
    add("malformed", "explicit-head-packed-int16-as-int32", readout(p16, encoding="int32-le-base64"), 2, N, "int16 data labelled int32: half the bytes")
    add("malformed", "explicit-head-packed-int32-as-int16", readout(p32, encoding="int16-le-base64"), 2, N, "int32 data labelled int16: twice the bytes")


if __name__ == "__main__":
    main()
