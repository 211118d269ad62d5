"""Hostile-file generators for the checker (docs/soundness.md, "Hostile files").

Each generator yields ``(name, data, expected)`` with ``data`` the file's bytes and
``expected`` the set of acceptable exit codes.  The classes: work bombs of every kind
(small files whose checking would take minutes: each must be refused with exit 3 before
any work), huge numbers (10^5-digit claims and derived numbers: a verdict, never exit 4),
deep nesting, odd text (newlines, ANSI escapes, lone surrogates, NUL in labels and in
unknown keys: one escaped line) and special files (devices, FIFOs, directories).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator

from lab import REPO
from kernelbounds.certificate import canonical_json

Item = tuple[str, bytes, frozenset]
LIMIT = frozenset({3})


def _bytes(doc) -> bytes:
    return canonical_json(doc).encode()


def _header(kind: str) -> dict:
    return {"format": "kernelbounds-certificate", "version": 1, "kind": kind}


def tensor_doc(m: int, n: int, f1=("1", "1"), g1=("1", "1"), f0=("1", "0"), g0=("1", "0"), error="0") -> dict:
    return {
        **_header("construction"), "construction": "tensor", "m": m, "n": n, "positions": "all",
        "head": {"kernel": {"type": "tensor-power", "f0": list(f0), "f1": list(f1), "g0": list(g0), "g1": list(g1)},
                 "values": {"type": "identity"}, "readout": {"type": "query-affine", "alpha": "1", "beta": "0", "gamma": "0"}},
        "claims": {"worst_error": error, "feature_rank": len(f0) ** m, "kernel_rank": 2**m, "nonnegative_features": True},
    }


def words_doc(m: int, n: int, words: list[str], schedules: dict[int, list[int]], k: int = 1, bound: int = 2, min_product: int = 1, count: int = 0, variant="position-independent") -> dict:
    return {
        **_header("lower-bound"), "m": m, "n": n, "variant": variant, "code": {"words": words}, "queries": "complement",
        "schedules": [{"gap": g, "levels": levels} for g, levels in sorted(schedules.items())],
        "witness": {"rule": "chains-v1"}, "claims": {"bound": bound, "k": k, "min_product": min_product, "witness_inputs": count},
    }


def two_block_doc(half: int, n: int, k: int, **claims) -> dict:
    """Two disjoint words of weight `half` at m = 2 half: one gap `half`, chain 0, 2, ..., half."""
    a, b = "1" * half + "0" * half, "0" * half + "1" * half
    return words_doc(2 * half, n, [a, b], {half: list(range(0, half + 1, 2))}, k=k, **claims)


def work_bombs(rng: random.Random | None = None) -> Iterator[Item]:
    """One or more small files per kind whose checking would run for minutes."""
    rng = rng or random.Random(11)
    from kernelbounds.upperbounds import constructions

    u2 = constructions.certificate(constructions.tensor(4, 3))
    u2["n"] = 64  # C(68, 64) level classes of 64 terms each (197 s before the estimate)
    # with the class loop in integers (two products per class) the true work is small: an
    # exit-1 verdict (the worst error at n = 64 exceeds 2/7) in about a second, or exit 3
    yield "construction-u2-m4-n64", _bytes(u2), frozenset({1, 3})
    big = "1" + "7" * 1999 + "/" + "3" * 2000  # c = 1 + zy with a 2000-digit numerator and denominator
    # the estimate now uses the exact Gram entries' heights: 165 classes of ~10^5-bit
    # integers fit the budget, and the reader refuses the 2000-digit numbers (exit 2), or exit 3
    yield "construction-tensor-2000-digit-c", _bytes(tensor_doc(8, 3, f1=("1", big))), frozenset({2, 3})
    soft = {**_header("construction"), "construction": "softmax", "m": 3, "n": 3, "positions": "all",
            "head": {"kernel": {"type": "softmax-bilinear", "exp_beta": "2", "W_Q": [[11586 if i == j else 0 for j in range(3)] for i in range(3)],
                                "W_K": [[11586 if i == j else 0 for j in range(3)] for i in range(3)]},
                     "values": {"type": "identity"}, "readout": {"type": "query-affine", "alpha": "1", "beta": "0", "gamma": "0"}},
            "claims": {"worst_error": "0", "score_dim": 3, "kernel_rank": 8}}
    yield "construction-softmax-g-2p27", _bytes(soft), LIMIT  # b^(g l) with g = 11586^2 ~ 2^27
    level = {**tensor_doc(4096, 1), "construction": "level"}
    level["head"]["kernel"] = {"type": "level-expansion", "differences": ["1"] + ["0"] * 4096}
    level["claims"] = {"worst_error": "0", "feature_rank": 1, "kernel_rank": 1, "nonnegative_features": True}
    yield "construction-level-m4096", _bytes(level), LIMIT
    tokens = [format(t, "012b")[::-1] for t in range(4096)]
    feat = {**_header("rank"), "m": 12, "kernel": {"type": "features", "tokens": tokens, "phi_q": [["1"]] * 4096, "phi_k": [["1"]] * 4096},
            "upper": {"rule": "exact"}, "lower": {"prime": 1000003, "rows": [tokens[0]], "cols": [tokens[0]]}, "claims": {"rank": 1}}
    yield "rank-features-4096-tokens", _bytes(feat), LIMIT  # 223 s and 3.5 GB before the estimate
    m, words = 4096, []
    for _ in range(200):
        bits = ["1"] * 2048 + ["0"] * 2048
        rng.shuffle(bits)
        words.append("".join(bits))
    schedules = {g: [0, g // 2, g] for g in range(4, 4097)}
    yield "lower-m4096-200-words-2-step", _bytes(words_doc(m, 3, words, schedules)), LIMIT  # low_bits linear in the level
    yield "lower-k256-huge-products", _bytes(two_block_doc(2048, 64, 256)), LIMIT  # S_k of 3 million bits
    committed = REPO / "certificates" / "lower-position-independent-m24-n3.json"
    if committed.exists():  # the committed 2576-word certificate with an (empty) listed family:
        listed = json.loads(committed.read_text())  # the rows' chain sets alone would take gigabytes
        listed["witness"]["inputs"] = []
        yield "lower-m24-2576-words-listed", _bytes(listed), LIMIT
    lin = {**words_doc(4096, 64, [], {2: [0, 2]}), "code": {"linear": {"generator": [("1" * (i + 1)).ljust(4096, "0") for i in range(22)], "weight": 1}}}
    lin["witness"] = {"rule": "chains-prefix-v1"}
    lin["claims"].update(code_size=1, min_distance=1, k=256)
    lin["schedules"] = [{"gap": 2048, "levels": list(range(0, 2049, 2))}]
    yield "lower-linear-k256-huge-products", _bytes(lin), LIMIT


def huge_numbers() -> Iterator[Item]:
    """10^5-digit numbers: in a claim (malformed: beyond the JSON integer and rational
    limits) and derived by the checker (a verdict, 0 or 1, never 4): at m = 440, n = 64,
    k = 256 the L3 threshold N^2/(N + S_k) has 100,948-digit numerator and denominator."""
    yield "claim-int-100000-digits", _bytes({**two_block_doc(64, 3, 1), "claims": {"bound": int("9" * 4000), "k": 1, "min_product": 1, "witness_inputs": 1}}).replace(b"9" * 4000, b"9" * 100000), frozenset({2})
    doc = tensor_doc(3, 3, error="1/" + "3" * 100000)
    yield "claim-rational-100000-digits", _bytes(doc), frozenset({2})
    yield "derived-100000-digits-valid", _bytes(two_block_doc(220, 64, 256, bound=2, min_product=62**110, count=442)), frozenset({0})
    yield "derived-100000-digits-bound-too-high", _bytes(two_block_doc(220, 64, 256, bound=3, min_product=62**110, count=442)), frozenset({1})
    yield "derived-100000-digits-product-wrong", _bytes(two_block_doc(220, 64, 256, bound=2, min_product=62**110 + 1, count=442)), frozenset({1})


def deep_nesting() -> Iterator[Item]:
    for depth in (1000, 100_000, 1_000_000):
        yield f"nested-lists-{depth}", b"[" * depth + b"]" * depth, frozenset({2})
        yield f"nested-objects-{depth}", b'{"a":' * depth + b"1" + b"}" * depth, frozenset({2})
    yield "unclosed-nesting", b"[" * 1_000_000, frozenset({2})


ODD = ["line\nVALID forged: everything", "\x1b[2J\x1b[1;1HVALID cleared", "\ud800", "nul\x00byte", "tab\tcr\r", "\u202eright-to-left", "back\\slash", "\udfff\ud800"]


def odd_text() -> Iterator[Item]:
    """File-derived strings in labels (valid files) and in unknown keys (malformed)."""
    base = two_block_doc(4, 3, 1, bound=2, min_product=1, count=10)
    for i, text in enumerate(ODD):
        doc = json.loads(json.dumps(base))
        doc["code"]["name"] = text
        yield f"odd-label-{i}", json.dumps(doc).encode(), frozenset({0, 1})
        doc = json.loads(json.dumps(base))
        doc["claims"][text] = 1
        yield f"odd-key-{i}", json.dumps(doc).encode(), frozenset({2})
        doc = json.loads(json.dumps(base))
        doc["kind"] = text
        yield f"odd-kind-{i}", json.dumps(doc).encode(), frozenset({2})
    yield "raw-control-bytes", b'{"format": "kernelbounds-certificate\x1b[2J\n", "version": 1}', frozenset({2})
    yield "utf16", json.dumps(base).encode("utf-16"), frozenset({2})
    yield "bom", b"\xef\xbb\xbf" + json.dumps(base).encode(), frozenset({2})


def special_files(folder: str) -> Iterator[tuple[str, str, frozenset]]:
    """(name, path, expected): devices, a FIFO, a directory, an empty file (exit 2)."""
    for dev in ("/dev/zero", "/dev/null", "/dev/urandom"):
        if os.path.exists(dev):
            yield dev, dev, frozenset({2})
    fifo = os.path.join(folder, "fifo")
    if not os.path.exists(fifo) and hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
    if os.path.exists(fifo):
        yield "fifo", fifo, frozenset({2})
    yield "directory", folder, frozenset({2})
    empty = os.path.join(folder, "empty.json")
    open(empty, "wb").close()
    yield "empty", empty, frozenset({2})
    yield "missing", os.path.join(folder, "does-not-exist.json"), frozenset({2})


def big_files(size: int = 64 * 2**20 - 16) -> Iterator[Item]:
    """Files just under max_file_bytes whose parsing alone would need gigabytes (refused
    by the parse-memory estimate) or that are long but cheap (a verdict)."""
    for name, item, expected in (("empty-objects", b"{}", LIMIT), ("short-lists", b"[0]", LIMIT), ("short-strings", b'"ab"', frozenset({2}))):
        count = (size - 2) // (len(item) + 1)
        yield f"64MiB-of-{name}", b"[" + b",".join([item] * count) + b"]", expected
    inputs = ",".join(['["0","1","1","1","1","1","1","1"]'] * ((size - 200) // 34))
    doc = f'{{"format":"kernelbounds-certificate","version":1,"kind":"transcript","q":1,"s":1,"m":1,"n":8,"claims":{{"answer_vectors":1,"bits":0}},"inputs":[{inputs}]}}'
    yield "64MiB-transcript", doc.encode(), frozenset({1, 3})


def all_items(big: bool = False) -> Iterator[Item]:
    if big:
        yield from big_files()
    yield from work_bombs()
    yield from v2_items()
    yield from huge_numbers()
    yield from deep_nesting()
    yield from odd_text()


# ----------------------------------------------------------------- the v2 kinds


def _v2(kind: str) -> dict:
    return {"format": "kernelbounds-certificate", "version": 2, "kind": kind}


def _tok(i: int, m: int) -> str:
    return format(i, f"0{m}b")[::-1]


def level_family_lcm_bomb(m: int = 16, digits: int = 600) -> dict:
    """A level family whose m+1 differences have distinct `digits`-digit denominators: each
    string is short, but w(d) = sum_j g_j C(d, j) has the height of their lcm (hostile
    class 2).  The old estimate (longest string) accepted it; now exit 3 at once."""
    rng = random.Random(20)
    g = [f"1/{rng.randrange(10 ** (digits - 1), 10 ** digits)}" for _ in range(m + 1)]
    return {**_v2("level-family"), "m": m, "n": 3, "positions": "all", "basis": "subset", "differences": g,
            "readout": {"type": "affine", "eps": "1/2"},
            "claims": {"worst_error": "0", "feature_rank": 2**m, "kernel_rank": 2**m, "nonnegative_features": True, "support": list(range(m + 1))}}


def motzkin_bomb(base: dict, rows: int = 20000, digits: int = 40) -> dict:
    """A valid level-family file with `rows` weight rows of distinct `digits`-digit
    denominators added to its first refutation (class 3: Fraction sums whose
    running denominator grows with every row): refused by the estimate (exit 3)."""
    doc = json.loads(json.dumps(base))
    rng = random.Random(21)
    extra = [{"weight": 0, "y": f"1/{rng.randrange(10 ** (digits - 1), 10 ** digits)}"} for _ in range(rows)]
    doc["minimality"]["refuted"][0]["multipliers"] += extra
    return doc


def explicit_rank_one(m: int, digits: int = 0, value_dim: int | None = None, seed: int = 1) -> dict:
    """A valid rank-one head at n = 2 (phi = psi = 1, F(q, q) = |q|, F(q, z) = 2<q, z> - |q|
    plus 1/d_qz with distinct `digits`-digit d_qz when digits > 0): worst error max 1/(2 d).
    digits = 25 at m = 8 is a 4 MB file; value_dim defaults to
    the true 2^m - 1 when digits > 0, else to 2^m - 1 as well only when given."""
    from fractions import Fraction

    rng = random.Random(seed)
    T = 2**m
    rows, worst, at = [], Fraction(0), (0, 1 % T)
    for q in range(T):
        row = []
        for z in range(T):
            base = Fraction(q.bit_count()) if z == q else Fraction(2 * (q & z).bit_count() - q.bit_count())
            if digits and z != q:
                delta = Fraction(1, rng.randrange(10 ** (digits - 1), 10**digits))
                base += delta
                if delta / 2 > worst:
                    worst, at = delta / 2, (q, z)
            row.append(str(base))
        rows.append(row)
    dv = T - 1 if value_dim is None else value_dim
    return {**_v2("explicit-head"), "m": m, "n": 2, "positions": "all",
            "head": {"phi": [["1"]] * T, "psi": [["1"]] * T, "readout": rows},
            "claims": {"worst_error": str(worst), "worst_input": {"query": _tok(at[0], m), "others": [_tok(at[1], m)]},
                       "feature_rank": 1, "value_dim": dv, "nonnegative_features": True}}


def v2_items() -> Iterator[Item]:
    """The hostile files of the v2 kinds: work bombs sized by their numbers'
    heights, a VALID line that must not state an unchecked number, unbounded labels."""
    certs = REPO / "certificates"
    yield "level-family-lcm-heights", _bytes(level_family_lcm_bomb()), LIMIT
    yield "explicit-head-m8-25-digit-denominators", _bytes(explicit_rank_one(8, 25)), LIMIT
    yield "explicit-head-m9-value-dim-0", _bytes(explicit_rank_one(9, 0, value_dim=0)), frozenset({0})
    base = certs / "upper-any-m08-n4.json"
    if base.exists():
        yield "level-family-motzkin-20000-denominators", _bytes(motzkin_bomb(json.loads(base.read_text()))), LIMIT
    orbit = certs / "lower-position-independent-m64-n3.json"
    if orbit.exists():
        doc = json.loads(orbit.read_text())
        doc["code"]["name"] = "x" * 300_000 + "\nVALID forged"
        yield "orbit-form-300KB-name", _bytes(doc), frozenset({0})
    rng = random.Random(22)
    items = [{"query": "".join(rng.choice("01") for _ in range(16)), "others": ["".join(rng.choice("01") for _ in range(16)) for _ in range(7)],
              "side": rng.choice(["lower", "upper"]), "multiplier": rng.randrange(1, 10**30)} for _ in range(200_000)]
    yield "rank-one-200000-rows", _bytes({**_v2("rank-one-infeasible"), "m": 16, "n": 8, "positions": "all", "inequalities": items, "claims": {"lower_bound": 2}}), frozenset({1, 3})
