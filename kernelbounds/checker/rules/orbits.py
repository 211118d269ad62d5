"""Rule `lower-bound`, per-entry form through automorphism orbits (format version 2;
THEORY §3 L3 "Rows in one orbit", L4).  docs/certificate-format-v2.md, "Orbit form".

The code is a listed constant-weight code or the weight-w words of a binary linear code;
`/symmetry/permutations` lists coordinate permutations.  Checked facts:
  O1  each permutation is a permutation of 0..m-1 that maps the code onto itself (linear:
      every permuted generator row lies in the row space, so the weight-w words map onto
      themselves; listed: the permuted word set is the word set);
  O2  the orbits of the group they generate: a search from each claimed representative
      (the checker's own closure under the permutations), with the claimed sizes; the
      orbits are disjoint and cover all N words;
  O3  per orbit, the full gap histogram of its representative's row over all N words
      (exact popcounts); rows in one orbit share it (THEORY: |pi c_j \\ pi c_i| = |c_j \\ c_i|);
  O4  one schedule per gap that occurs (checked as B2), none for a gap that never occurs;
  O5  S_k = sum_O |O| sum_g count_O(g) P(g)^(-2k); bound = least r with
      C(r+k-1, k) > N^2 / (N + S_k); min_product = least P(g) over the occurring gaps;
  O6  the chains-v1 witness family, counted in closed form per orbit (constant weight).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ..common import Outcome, expect_equal, rat, require_version
from .. import claims as claim_of
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits, require
from ..text import show
from .chains import MAX_K, SCOPE, constant_weight_row_count, least_rank, placements, read_schedules
from . import kernels
from .linear import echelon, in_span, independent

MAX_PERMUTATIONS = 64


def chunk_bits(m: int) -> int:
    """Bits per lookup table when permuting a word (16 up to m = 128, else 8)."""
    return 16 if m <= 128 else 8


def _chunks(m: int) -> int:
    b = chunk_bits(m)
    return (m + b - 1) // b


def work_orbits(doc: Node, limits: Limits) -> int:
    """An upper bound on the orbit route's elementary operations, from the document's
    sizes before any work: enumeration (linear: 2^k codewords), table building, the
    closure (N x permutations x table lookups; for listed codes also the automorphism
    test), and one row of N popcounts per claimed orbit; each operation on an m-bit word
    counts ceil(m/64).  For a linear code N is the claimed code_size: the enumeration
    rejects the file as soon as it finds a different number of weight-w words."""
    m = doc["m"].int(1, limit=limits.max_m)
    perms = len(doc["symmetry"]["permutations"].list(MAX_PERMUTATIONS))
    claims = doc["claims"]
    orbit_count = len(claims["orbits"].list(limits.max_orbit_words))
    code = doc["code"]
    if code.has("linear"):
        dim = len(code["linear"]["generator"].list(limits.max_linear_dim))
        n_words = claims["code_size"].int(0, limit=limits.max_orbit_words)
        enumerate_ops, passes = 2**dim, 1
    else:
        n_words = len(code["words"].list(limits.max_orbit_words))
        enumerate_ops, passes = n_words, 2
    size = (m + 63) // 64
    tables = perms * _chunks(m) * 2 ** chunk_bits(m)
    closure = passes * n_words * perms * _chunks(m)
    rows = (orbit_count + 1) * n_words
    return size * (enumerate_ops + closure + rows) + tables


def read_permutations(node: Node, m: int) -> list[list[int]]:
    out = []
    for item in node.list(MAX_PERMUTATIONS):
        images = [x.int(0, m - 1) for x in item.list(m, length=m)]
        if len(set(images)) != m:
            raise Invalid(item.pointer, "not a permutation of the coordinates 0..m-1 (an image repeats)")
        out.append(images)
    if not out:
        raise Invalid(node.pointer, "the orbit form needs at least one permutation")
    return out


class Permutation:
    """A coordinate permutation (bit i goes to bit images[i]) applied by table lookups."""

    def __init__(self, images: list[int], m: int):
        self.bits = chunk_bits(m)
        mask = (1 << self.bits) - 1
        self.mask = mask
        self.tables = []
        for start in range(0, m, self.bits):
            width = min(self.bits, m - start)
            table = [0] * (1 << width)
            for x in range(1, 1 << width):
                low = x & -x
                table[x] = table[x ^ low] | (1 << images[start + low.bit_length() - 1])
            self.tables.append(table)

    def __call__(self, w: int) -> int:
        out, bits, mask = 0, self.bits, self.mask
        for table in self.tables:
            out |= table[w & mask]
            w >>= bits
        return out

    def apply_all(self, words: list[int]) -> list[int]:
        """The images of many words (unrolled for the four tables of m <= 64)."""
        if len(self.tables) == 4 and self.bits == 16:
            t0, t1, t2, t3 = self.tables
            return [t0[w & 0xFFFF] | t1[(w >> 16) & 0xFFFF] | t2[(w >> 32) & 0xFFFF] | t3[w >> 48] for w in words]
        return [self(w) for w in words]


def linear_words(doc: Node, m: int, limits: Limits) -> tuple[list[int], list[int], str]:
    """(generator rows, the weight-w codewords in Gray-code order, description); stops
    at the first word beyond the claimed N (the work bound assumed N)."""
    lin = doc["code"]["linear"].obj({"generator", "weight"})
    items = lin["generator"].list(limits.max_linear_dim)
    rows = [x.token(m) for x in items]
    w = lin["weight"].int(1, m)
    if not rows or not independent(rows):
        raise Invalid(lin["generator"].pointer, "the generator rows are not linearly independent over F_2")
    claimed = doc["claims"]["code_size"]
    cap = claimed.int(0)
    words, word = [], 0
    for i in range(1, 2 ** len(rows)):  # Gray code: flip one row per step
        word ^= rows[(i & -i).bit_length() - 1]
        if word.bit_count() == w:
            words.append(word)
            if len(words) > cap:
                raise Invalid(claimed.pointer, f"claims N = {cap} words of weight {w}, but the code has more")
    expect_equal(claimed, cap, len(words), f"N, the number of weight-{w} codewords")
    if len(words) < 2:
        raise Invalid(lin["weight"].pointer, f"the code has {len(words)} words of weight {w}; the bound needs N >= 2")
    return rows, words, f"the {len(words)} weight-{w} words of a linear code ({len(rows)} rows, 2^{len(rows)} codewords enumerated)"


def listed_words(doc: Node, m: int, limits: Limits) -> list[int]:
    node = doc["code"]["words"]
    items = node.list(limits.max_orbit_words)
    words = [x.token(m) for x in items]
    if len(words) < 2:
        raise Invalid(node.pointer, "the bound needs N >= 2 words")
    if len(set(words)) != len(words):
        seen: dict[int, int] = {}
        for j, w in enumerate(words):
            if w in seen:
                raise Invalid(items[j].pointer, f"repeats word {seen[w]}")
            seen[w] = j
    w0 = words[0].bit_count()
    for j, w in enumerate(words):
        if w.bit_count() != w0:
            raise Invalid(items[j].pointer, f"the orbit form needs a constant-weight code: weight {w.bit_count()}, word 0 has {w0}")
    return words


def check_automorphisms(doc: Node, perms: list[Permutation], words: list[int], rows: list[int] | None) -> None:
    """O1: linear codes by their generator rows, listed codes by the whole word set."""
    node = doc["symmetry"]["permutations"]
    if rows is not None:
        basis = echelon(rows)
        if basis is None:  # (linear_words refused dependent rows already)
            raise Invalid(doc["code"]["linear"]["generator"].pointer, "the generator rows are not linearly independent over F_2")
        for p, perm in enumerate(perms):
            for r, row in enumerate(rows):
                if not in_span(basis, perm(row)):
                    raise Invalid(node[p].pointer, f"not an automorphism: it maps generator row {r} outside the code")
        return
    word_set = set(words)
    for p, perm in enumerate(perms):
        for j, image in enumerate(perm.apply_all(words)):
            if image not in word_set:
                raise Invalid(node[p].pointer, f"not an automorphism: it maps code word {j} outside the code")


def closure(start: int, perms: list[Permutation], owner: dict[int, int], label: int) -> int:
    """O2: the orbit of `start` by a depth-first search; marks its words in `owner`."""
    owner[start] = label
    frontier, size = [start], 1
    while frontier:
        batch, frontier = frontier, []
        for perm in perms:
            for y in perm.apply_all(batch):
                if y not in owner:
                    owner[y] = label
                    frontier.append(y)
                    size += 1
    return size


def row_histogram(rep: int, words: list[int], m: int) -> Counter:
    """O3: {g: #j != i with |c_j \\ c_i| = g} for c_i = rep (gap 0 only at j = i)."""
    q = ((1 << m) - 1) ^ rep
    hist = Counter(map(int.bit_count, map(q.__and__, words)))
    hist[0] -= 1
    if hist[0] == 0:
        del hist[0]
    return hist


def check_orbit_claims(claims: Node, words: list[int], perms: list[Permutation], m: int) -> list[tuple[int, Counter]]:
    """O2, O3: [(|O|, histogram of O's representative)] after comparing every claim."""
    items = claims["orbits"].list(len(words))
    owner: dict[int, int] = {}
    word_set = set(words)
    out = []
    for t, item in enumerate(items):
        item.obj({"representative", "size", "gaps"})
        rep = item["representative"].token(m)
        if rep not in word_set:
            raise Invalid(item["representative"].pointer, "the representative is not a code word")
        if rep in owner:
            raise Invalid(item["representative"].pointer, f"lies in the orbit of orbit {owner[rep]}'s representative: one orbit listed twice (split by hand)")
        size = closure(rep, perms, owner, t)
        expect_equal(item["size"], item["size"].int(1), size, "the orbit size (the checker's closure under the permutations)")
        hist = row_histogram(rep, words, m)
        check_histogram(item["gaps"], hist)
        out.append((size, hist))
    if len(owner) != len(words):
        missing = next(j for j, w in enumerate(words) if w not in owner)
        raise Invalid(claims["orbits"].pointer, f"the listed orbits cover {len(owner)} of the N = {len(words)} words (code word {missing} is in none)")
    return out


def check_histogram(node: Node, hist: Counter) -> None:
    """The claimed [{gap, count}] list, increasing in gap, equals the derived histogram."""
    items = node.list(len(hist) + 64)
    seen: list[int] = []
    for item in items:
        item.obj({"gap", "count"})
        g = item["gap"].int(0)
        if seen and g <= seen[-1]:
            raise Invalid(item["gap"].pointer, "gaps must be listed in increasing order")
        seen.append(g)
        if g not in hist:
            raise Invalid(item["gap"].pointer, f"gap {g} never occurs in this row")
        expect_equal(item["count"], item["count"].int(0), hist[g], f"the number of words at gap {g} from the representative")
    absent = sorted(set(hist) - set(seen))
    if absent:
        raise Invalid(node.pointer, f"omits gap {absent[0]}, which occurs {hist[absent[0]]} times in this row")


def check_per_entry_bound(claims: Node, products: Counter[int], big_n: int, k: int, kernel: str, over: str) -> tuple[int, Fraction, int, int]:
    """O5 (and DS4): min_product = the least P over the ordered pairs (`products`: P -> pairs);
    S_k = sum_P pairs / P^(2k), x = N^2/(N + S_k), l3 = the least r with C(r+k-1, k) > x, and
    the claimed bound = l3 (minus 1 for a signed kernel, THEORY L8).  Returns (min_product, x, l3, bound)."""
    min_product = min(products)
    expect_equal(claims["min_product"], claims["min_product"].int(0), min_product, f"the least chain product P(g) over {over}")
    s_k = sum((Fraction(c, p ** (2 * k)) for p, c in products.items()), Fraction(0))
    x = Fraction(big_n * big_n) / (big_n + s_k)
    l3 = least_rank(k, x)
    bound = kernels.chain_bound(l3, kernel)
    expect_equal(claims["bound"], claims["bound"].int(0), bound, f"the bound (least r with C(r+{k}-1, {k}) > N^2/(N+S_k) = {float(x):.6g}{'' if bound == l3 else ', minus 1 for a signed kernel (THEORY L8)'})")
    return min_product, x, l3, bound


def check_orbits(doc: Node, m: int, n: int, variant: str, limits: Limits, kernel: str = "nonnegative") -> Outcome:
    sym = doc["symmetry"].obj({"permutations"})
    require_version(doc, sym, 2, "the orbit form (/symmetry)")
    work = work_orbits(doc, limits)
    require(work <= limits.max_orbit_work, "/symmetry", "the orbit route's work", work, limits.max_orbit_work)
    linear = doc["code"].has("linear")
    doc["code"].obj({"linear"} if linear else {"words"}, {"name"})
    name = doc["code"]["name"].str() if doc["code"].has("name") else ("linear" if linear else "listed")
    if linear:
        rows, words, what = linear_words(doc, m, limits)
    else:
        rows, words = None, listed_words(doc, m, limits)
        what = f"{len(words)} listed words of weight {words[0].bit_count()}"
    perms = [Permutation(p, m) for p in read_permutations(sym["permutations"], m)]
    check_automorphisms(doc, perms, words, rows)
    schedules = read_schedules(doc, n, m)
    claims = doc["claims"].obj({"bound", "k", "min_product", "witness_inputs", "code_size", "orbits"})
    big_n = len(words)
    expect_equal(claims["code_size"], claims["code_size"].int(0), big_n, "N, the number of code words")
    orbits = check_orbit_claims(claims, words, perms, m)
    occurring = set().union(*(set(h) for _, h in orbits))
    for g in sorted(occurring):
        if g not in schedules:
            why = f"gap {g} < 2: no chain bounds M_ij" if g < 2 else f"no schedule for gap {g}"
            raise Invalid("/schedules", f"a pair of code words has gap {g}: {why}")
    for item in doc["schedules"].list(m + 1):
        if item["gap"].int() not in occurring:
            raise Invalid(item["gap"].pointer, f"a schedule for gap {item['gap'].int()}, which no pair of code words has")
    k = claims["k"].int(1, MAX_K)
    products: Counter[int] = Counter()
    for size, hist in orbits:
        for g, c in hist.items():
            products[schedules[g][1]] += size * c
    min_product, x, l3, bound = check_per_entry_bound(claims, products, big_n, k, kernel, "the occurring gaps")
    per_link = placements(variant, n)
    count = sum(size * constant_weight_row_count(big_n, hist, schedules, per_link) for size, hist in orbits)
    witness = doc["witness"].obj({"rule"})
    witness["rule"].str(("chains-v1",))
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs (closed form per orbit)")
    shown = rat(x) if len(rat(x)) < 80 else "..."
    routes = [
        f"code {show(name)}: {what}; {len(perms)} permutations, each an automorphism",
        f"orbits (the checker's closure): {len(orbits)}, sizes {[s for s, _ in orbits]}; one row histogram of N = {big_n} popcounts each",
        f"chain products over the ordered pairs {dict(sorted(products.items()))}",
        f"L3 (per-entry): k = {k}, N^2/(N+S_k) = {float(x):.6g} (exactly {shown}), so rank M >= {l3}",
        *kernels.signed_route(l3, kernel),
        f"witness family (rule chains-v1): {count} inputs",
    ]
    summary = (
        f"lower bound (m={m}, n={n}, {variant}): {kernels.scope(variant, kernel, SCOPE[variant])} that solves the {count}-input witness family "
        f"of the {big_n} words of {show(name)} has feature rank r >= {bound} (upper bound 2^{m})"
    )
    return Outcome(summary, routes, version=2, claim=claim_of.lower(bound, m, n, variant, kernels.COVERED[kernel]))
