"""Rule `lower-bound`, per-entry form through automorphism orbits (format version 2;
THEORY §3 L3 "Rows in one orbit", L4).  docs/certificate-format-v2.md, "Orbit form".

The code is a listed constant-weight code or the weight-w words of a binary linear code;
`/symmetry/permutations` lists coordinate permutations.  Checked facts:
  O1  each permutation is a permutation of 0..m-1 that maps the code onto itself (linear:
      every permuted generator row lies in the row space, so the weight-w words map onto
      themselves; listed: the permuted word set is the word set);
  O2  the orbits of the group they generate: a breadth-first search from each claimed
      representative (the checker's own closure), with the claimed sizes; the orbits are
      disjoint and cover all N words.  The search runs over word indices: a listed word's
      position, whose image under a permutation O1 found; a linear code's word by its
      message vector x (the word is the XOR of the rows t with bit t of x), on which a
      permutation pi acts by the linear map whose column t is the message vector of
      pi(row t) (pi is F_2-linear), also found by O1;
  O3  per orbit, the full gap histogram of its representative's row over all N words
      (exact popcounts); rows in one orbit share it (THEORY: |pi c_j \\ pi c_i| = |c_j \\ c_i|);
  O4  one schedule per gap that occurs (checked as B2), none for a gap that never occurs;
  O5  S_k = sum_O |O| sum_g count_O(g) P(g)^(-2k); bound = least r with
      C(r+k-1, k) > N^2 / (N + S_k); min_product = least P(g) over the occurring gaps;
  O6  the chains-v1 witness family, counted in closed form per orbit (constant weight).
O0, the bound on this work from the sizes (over max_orbit_work or max_orbit_words: exit 3
before any of it), is the robustness layer's: rules/orbits_work.py, in the estimates of
lower-bound and direct-sum.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from ..common import Outcome, expect_equal, rat, require_version
from .. import claims as claim_of
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits
from ..text import show
from .chains import MAX_K, SCOPE, check_per_entry_bound, constant_weight_row_count, placements, read_schedules
from . import kernels
from .linear import coordinates, independent, message_basis

MAX_PERMUTATIONS = 64


def chunk_bits(m: int) -> int:
    """Bits per lookup table when permuting a word (16 up to m = 128, else 8)."""
    return 16 if m <= 128 else 8


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


class LinearMap:
    """The F_2-linear map sending bit i to the vector columns[i], applied by table lookups
    on chunks of chunk_bits(len(columns)) bits (table[x] = XOR of the columns of x's bits).
    A coordinate permutation is the map with columns[i] = 1 << images[i]."""

    def __init__(self, columns: list[int]):
        self.bits = chunk_bits(len(columns))
        self.mask = (1 << self.bits) - 1
        self.tables = []
        for start in range(0, len(columns), self.bits):
            width = min(self.bits, len(columns) - start)
            table = [0] * (1 << width)
            for x in range(1, 1 << width):
                low = x & -x
                table[x] = table[x ^ low] ^ columns[start + low.bit_length() - 1]
            self.tables.append(table)

    def __call__(self, w: int) -> int:
        out, bits, mask = 0, self.bits, self.mask
        for table in self.tables:
            out ^= table[w & mask]
            w >>= bits
        return out

    def apply_all(self, words: list[int]) -> list[int]:
        """The images of many words (unrolled for one, two and four tables)."""
        tables, b, mask = self.tables, self.bits, self.mask
        if len(tables) == 1:
            return [tables[0][w] for w in words]
        if len(tables) == 2:
            t0, t1 = tables
            return [t0[w & mask] ^ t1[w >> b] for w in words]
        if len(tables) == 4 and b == 16:
            t0, t1, t2, t3 = tables
            return [t0[w & 0xFFFF] ^ t1[(w >> 16) & 0xFFFF] ^ t2[(w >> 32) & 0xFFFF] ^ t3[w >> 48] for w in words]
        return [self(w) for w in words]


def permute(word: int, images: list[int]) -> int:
    """One word under the coordinate permutation moving bit i to bit images[i]."""
    return sum(1 << images[i] for i in range(len(images)) if word >> i & 1)


def linear_words(doc: Node, m: int, limits: Limits) -> tuple[list[int], list[int], list[int], str]:
    """(generator rows, the weight-w codewords in Gray-code order, their message vectors,
    description): the word XOR_{t in x} row_t has message vector x, here x = i ^ (i >> 1)
    after Gray step i; stops at the first word beyond the claimed N (the work bound assumed N)."""
    lin = doc["code"]["linear"].obj({"generator", "weight"})
    items = lin["generator"].list(limits.max_linear_dim)
    rows = [x.token(m) for x in items]
    w = lin["weight"].int(1, m)
    if not rows or not independent(rows):
        raise Invalid(lin["generator"].pointer, "the generator rows are not linearly independent over F_2")
    claimed = doc["claims"]["code_size"]
    cap = claimed.int(0)
    words, messages, word = [], [], 0
    for i in range(1, 2 ** len(rows)):  # Gray code: flip one row per step
        word ^= rows[(i & -i).bit_length() - 1]
        if word.bit_count() == w:
            words.append(word)
            messages.append(i ^ (i >> 1))
            if len(words) > cap:
                raise Invalid(claimed.pointer, f"claims N = {cap} words of weight {w}, but the code has more")
    expect_equal(claimed, cap, len(words), f"N, the number of weight-{w} codewords")
    if len(words) < 2:
        raise Invalid(lin["weight"].pointer, f"the code has {len(words)} words of weight {w}; the bound needs N >= 2")
    return rows, words, messages, f"the {len(words)} weight-{w} words of a linear code ({len(rows)} rows, 2^{len(rows)} codewords enumerated)"


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


class Action(NamedTuple):
    """The permutations acting on the code's N words through indices 0..space-1 (O1, O2):
    a listed word's index is its position, a linear code's word's its message vector x
    (the word is the XOR of the rows t with bit t of x); `maps` apply each permutation to a
    list of indices, `index_of` finds a word's index (None: not a code word), `order[j]` is
    the index of word j."""

    space: int
    maps: list[Callable[[list[int]], list[int]]]
    index_of: Callable[[int], int | None]
    order: list[int]


def check_automorphisms(doc: Node, images: list[list[int]], words: list[int], code: list[int] | tuple[list[int], list[int]]) -> Action:
    """O1, and the permutations' action on the words' indices.  `code` is the listed words'
    list, or (generator rows, message vectors) of a linear code: a permutation is checked
    on the generator rows (each image's message vector is a column of its action) or on
    every listed word (each image's position is an entry of its action)."""
    node = doc["symmetry"]["permutations"]
    if isinstance(code, tuple):
        rows, messages = code
        basis = message_basis(rows)
        if basis is None:
            raise AssertionError("the generator rows were checked independent (linear_words)")
        weight = words[0].bit_count()
        maps: list[Callable[[list[int]], list[int]]] = []
        for p, perm in enumerate(images):
            columns = []
            for r, row in enumerate(rows):
                x = coordinates(basis, permute(row, perm))
                if x is None:
                    raise Invalid(node[p].pointer, f"not an automorphism: it maps generator row {r} outside the code")
                columns.append(x)
            maps.append(LinearMap(columns).apply_all)

        def message(word: int) -> int | None:
            return coordinates(basis, word) if word.bit_count() == weight else None

        return Action(1 << len(rows), maps, message, messages)
    position = {w: j for j, w in enumerate(words)}
    listed: list[Callable[[list[int]], list[int]]] = []
    for p, perm in enumerate(images):
        found = [position.get(y, -1) for y in LinearMap([1 << i for i in perm]).apply_all(words)]
        if -1 in found:
            raise Invalid(node[p].pointer, f"not an automorphism: it maps code word {found.index(-1)} outside the code")
        listed.append(positions(found))
    return Action(len(words), listed, position.get, list(range(len(words))))


def positions(images: list[int]) -> Callable[[list[int]], list[int]]:
    """The map j -> images[j], applied to a list of indices."""
    return lambda batch: [images[j] for j in batch]


def closure(start: int, maps: list[Callable[[list[int]], list[int]]], owner: list[int], label: int) -> int:
    """O2: the orbit of index `start` by a breadth-first search that applies every map once
    to every index it reaches; marks them `label` in `owner` (-1: unreached); its size."""
    owner[start] = label
    frontier, size = [start], 1
    while frontier:
        batch, frontier = frontier, []
        for step in maps:
            for y in step(batch):
                if owner[y] < 0:
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


def check_orbit_claims(claims: Node, words: list[int], action: Action, m: int) -> list[tuple[int, Counter]]:
    """O2, O3: [(|O|, histogram of O's representative)] after comparing every claim."""
    items = claims["orbits"].list(len(words))
    owner = [-1] * action.space
    out = []
    for t, item in enumerate(items):
        item.obj({"representative", "size", "gaps"})
        rep = item["representative"].token(m)
        x = action.index_of(rep)
        if x is None:
            raise Invalid(item["representative"].pointer, "the representative is not a code word")
        if owner[x] >= 0:
            raise Invalid(item["representative"].pointer, f"lies in the orbit of orbit {owner[x]}'s representative: one orbit listed twice (split by hand)")
        size = closure(x, action.maps, owner, t)
        expect_equal(item["size"], item["size"].int(1), size, "the orbit size (the checker's closure under the permutations)")
        hist = row_histogram(rep, words, m)
        check_histogram(item["gaps"], hist)
        out.append((size, hist))
    covered = sum(size for size, _ in out)  # the orbits are disjoint
    if covered != len(words):
        missing = next(j for j, x in enumerate(action.order) if owner[x] < 0)
        raise Invalid(claims["orbits"].pointer, f"the listed orbits cover {covered} of the N = {len(words)} words (code word {missing} is in none)")
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


def check_orbits(doc: Node, m: int, n: int, variant: str, limits: Limits, kernel: str = "nonnegative") -> Outcome:
    sym = doc["symmetry"].obj({"permutations"})
    require_version(doc, sym, 2, "the orbit form (/symmetry)")
    linear = doc["code"].has("linear")
    doc["code"].obj({"linear"} if linear else {"words"}, {"name"})
    name = doc["code"]["name"].str() if doc["code"].has("name") else ("linear" if linear else "listed")
    code: list[int] | tuple[list[int], list[int]]
    if linear:
        rows, words, messages, what = linear_words(doc, m, limits)
        code = (rows, messages)
    else:
        words = code = listed_words(doc, m, limits)
        what = f"{len(words)} listed words of weight {words[0].bit_count()}"
    perms = read_permutations(sym["permutations"], m)
    action = check_automorphisms(doc, perms, words, code)
    schedules = read_schedules(doc, n, m)
    claims = doc["claims"].obj({"bound", "k", "min_product", "witness_inputs", "code_size", "orbits"})
    big_n = len(words)
    expect_equal(claims["code_size"], claims["code_size"].int(0), big_n, "N, the number of code words")
    orbits = check_orbit_claims(claims, words, action, m)
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
