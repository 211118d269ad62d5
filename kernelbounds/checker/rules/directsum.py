"""Rule `direct-sum` (format v2; THEORY §3 L9, with L3, L4, L5, L8).
docs/certificate-format-v2.md, "Kind direct-sum".

The code is the direct sum of component codes, each given in the orbit form of a v2
lower-bound file (a listed constant-weight code or the weight-w words of a linear code,
coordinate permutations, orbits with their row histograms) and repeated `copies` times;
component c's copies occupy consecutive blocks of its length, in the listed order.
Checked facts:
  DS1 each distinct component passes the orbit form's own checks O1-O3 (its permutations
      are automorphisms, its orbits are the checker's closures, its histograms are N exact
      popcounts per representative) and every gap in it is >= 2 (a code of minimum
      distance >= 4: a pair at gap 1 carries no L1 bound); m = sum of lengths x copies;
  DS2 the sum's rows: for each tuple of component orbits (one per copy), the row
      histogram of the tuple's representative is the convolution of the copies' histograms
      (each with the word itself at gap 0), minus exactly one count at gap 0 (the row's own
      word); rows of one tuple share it (Aut(C) x Aut(D) maps the sum onto itself), and
      tuples that differ by permuting copies of one component share it too, so one
      convolution per multiset of orbits per component, weighted by its orderings;
  DS3 one schedule (checked as B2) per gap of the sum that occurs, none for another gap;
  DS4 S_k = sum over tuples of prod |O| x sum_g count(g) P(g)^(-2k); bound = the least r
      with C(r+k-1, k) > N^2 / (N + S_k), N = prod N_c^copies (minus 1 for a signed
      kernel, L8); min_product = least P(g) over the occurring gaps; code_size = N;
  DS5 the chains-v1 witness family counted in closed form per tuple (the sum is a
      constant-weight code, so O6's count applies to each row).
No word of the sum is listed or enumerated.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement, product as cartesian
from math import factorial

from ..common import Outcome, expect_equal, rat, require_version
from .. import claims as claim_of
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits
from ..text import show
from .chains import MAX_K, SCOPE, VARIANTS, check_per_entry_bound, constant_weight_row_count, placements, read_schedules
from . import kernels, orbits

FIELDS = {"format", "version", "kind", "m", "n", "variant", "queries", "components", "schedules", "witness", "claims"}
OPTIONAL = {"kernel"}
COMPONENT_FIELDS = {"m", "copies", "code", "symmetry", "claims"}
MAX_COMPONENTS = 16
MAX_COPIES = 64
MAX_TUPLES = 1_000_000  # multisets of orbits of the sum (each a few convolutions and one row count)


# ----------------------------------------------------------------- the components


class Component:
    """A checked component: its length, copies, word count, weight and [(|O|, histogram)]."""

    def __init__(self, m: int, copies: int, size: int, weight: int, rows: list[tuple[int, Counter]], name: str):
        self.m, self.copies, self.size, self.weight, self.rows, self.name = m, copies, size, weight, rows, name


def check_component(node: Node, limits: Limits) -> Component:
    """DS1: the component's orbit-form check (O1-O3, the orbit rule's own routines) and
    every gap >= 2."""
    node.obj(COMPONENT_FIELDS)
    m = node["m"].int(1, limit=limits.max_m)
    copies = node["copies"].int(1, MAX_COPIES)
    linear = node["code"].has("linear")
    node["code"].obj({"linear"} if linear else {"words"}, {"name"})
    name = node["code"]["name"].str() if node["code"].has("name") else ("linear" if linear else "listed")
    claims = node["claims"].obj({"code_size", "orbits"})
    code: list[int] | tuple[list[int], list[int]]
    if linear:
        rows, words, messages, _ = orbits.linear_words(node, m, limits)
        code = (rows, messages)
    else:
        words = code = orbits.listed_words(node, m, limits)
    sym = node["symmetry"].obj({"permutations"})
    action = orbits.check_automorphisms(node, orbits.read_permutations(sym["permutations"], m), words, code)
    expect_equal(claims["code_size"], claims["code_size"].int(0), len(words), "N, the number of code words of the component")
    found = orbits.check_orbit_claims(claims, words, action, m)
    for t, (_, hist) in enumerate(found):
        low = min(hist)
        if low < 2:
            entries = claims["orbits"][t]["gaps"].list(m + 65)
            e = next(i for i, item in enumerate(entries) if item["gap"].int() == low)
            raise Invalid(entries[e]["gap"].pointer, f"the component has a pair at gap {low} < 2 (minimum distance < 4): a direct sum needs every component gap >= 2 (THEORY L9)")
    return Component(m, copies, len(words), words[0].bit_count(), found, name)


def convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The convolution of two histograms (gap -> count)."""
    out: Counter[int] = Counter()
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] += x * y
    return dict(out)


def with_self(hist: Counter) -> dict[int, int]:
    """The row histogram with the word itself at gap 0 (count 1)."""
    return {0: 1, **hist}


def multisets(component: Component) -> Iterator[tuple[int, list[tuple[int, Counter]]]]:
    """(orderings, the orbits) for every multiset of `copies` orbits of the component: its
    copies are interchangeable, so a multiset with multiplicities e_1..e_K stands for
    copies! / prod e_i! ordered tuples."""
    for chosen in combinations_with_replacement(range(len(component.rows)), component.copies):
        orderings = factorial(component.copies)
        for e in Counter(chosen).values():
            orderings //= factorial(e)
        yield orderings, [component.rows[i] for i in chosen]


# ----------------------------------------------------------------- the rule


def check(doc: Node, limits: Limits) -> Outcome:
    doc.obj(FIELDS, OPTIONAL)
    require_version(doc, doc["kind"], 2, "the kind direct-sum")
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(3, limit=limits.max_n)
    variant = doc["variant"].str(VARIANTS)
    doc["queries"].str(("complement",))
    kernel = kernels.read_kernel(doc, variant, kind="direct-sum")
    items = doc["components"].list(MAX_COMPONENTS)
    if not items:
        raise Invalid(doc["components"].pointer, "a direct sum needs at least one component")
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        key = json.dumps([item.value.get(f) if isinstance(item.value, dict) else None for f in ("m", "code", "symmetry")], sort_keys=True)
        if key in seen:
            raise Invalid(item.pointer, f"repeats component {seen[key]} (the same code and symmetry): list it once with copies")
        seen[key] = index
    components = [check_component(item, limits) for item in items]
    length = sum(c.m * c.copies for c in components)
    if length != m:
        raise Invalid(doc["m"].pointer, f"the components' lengths times copies sum to {length}, not m = {m}")
    big_n = 1
    for c in components:
        big_n *= c.size**c.copies
    schedules = read_schedules(doc, n, m)
    claims = doc["claims"].obj({"bound", "k", "min_product", "witness_inputs", "code_size"})
    expect_equal(claims["code_size"], claims["code_size"].int(0), big_n, "N, the number of words of the sum (prod N_c^copies)")
    k = claims["k"].int(1, MAX_K)
    per_link = placements(variant, n)

    # DS2, DS3, DS5: every tuple of orbits (one per copy); its row histogram by convolution,
    # a schedule for each of its gaps, and its closed-form row count (nothing is stored per tuple)
    gap_counts: Counter[int] = Counter()  # gap -> ordered pairs of the sum at that gap
    tuple_total, count = 0, 0
    for choice in cartesian(*(list(multisets(c)) for c in components)):
        size, hist = 1, {0: 1}
        for orderings, chosen in choice:
            size *= orderings
            for orbit_size, h in chosen:
                size *= orbit_size
                hist = convolve(hist, with_self(h))
        if hist.get(0) != 1 or sum(hist.values()) != big_n:
            raise AssertionError("a convolved row must count its own word once at gap 0 and N words in all")
        row = {g: c for g, c in sorted(hist.items()) if c and g > 0}
        for g, cnt in row.items():
            if g not in schedules:
                raise Invalid("/schedules", f"a pair of words of the sum has gap {g}: no schedule for gap {g}")
            gap_counts[g] += size * cnt
        count += size * constant_weight_row_count(big_n, row, schedules, per_link)
        tuple_total += 1
    for item in doc["schedules"].list(m + 1):
        if item["gap"].int() not in gap_counts:
            raise Invalid(item["gap"].pointer, f"a schedule for gap {item['gap'].int()}, which no pair of words of the sum has")

    # DS4: the per-entry L3 bound
    products: Counter[int] = Counter()
    for g, cnt in gap_counts.items():
        products[schedules[g][1]] += cnt
    min_product, x, l3, bound = check_per_entry_bound(claims, products, big_n, k, kernel, "the occurring gaps of the sum")

    # DS5: the witness family in closed form per tuple
    witness = doc["witness"].obj({"rule"})
    witness["rule"].str(("chains-v1",))
    expect_equal(claims["witness_inputs"], claims["witness_inputs"].int(0), count, "the number of witness inputs (closed form per orbit tuple)")

    names = " + ".join(f"{c.name}" + (f"^{c.copies}" if c.copies > 1 else "") for c in components)
    shown = rat(x) if len(rat(x)) < 80 else "..."
    routes = [
        *(f"component {i} ({show(c.name)}, m = {c.m}, weight {c.weight}, x{c.copies}): {c.size} words, orbits {[s for s, _ in c.rows]} (the checker's closure), every gap >= 2"
          for i, c in enumerate(components)),
        f"direct sum {show(names)}: m = {m}, N = {big_n}, {tuple_total} multisets of orbits, each row histogram a convolution (gap-0 count 1 removed); gaps {min(gap_counts)}..{max(gap_counts)}",
        f"chain products over the ordered pairs: {len(products)} distinct, least {min_product}",
        f"L3 (per-entry): k = {k}, N^2/(N+S_k) = {float(x):.6g} (exactly {shown}), so rank M >= {l3}",
        *kernels.signed_route(l3, kernel),
        f"witness family (rule chains-v1): {count} inputs",
    ]
    summary = (
        f"direct-sum lower bound (m={m}, n={n}, {variant}): {kernels.scope(variant, kernel, SCOPE[variant])} that solves the {count}-input witness family "
        f"of the {big_n} words of {show(names)} has feature rank r >= {bound} (upper bound 2^{m})"
    )
    return Outcome(summary, routes, version=2, claim=claim_of.lower(bound, m, n, variant, tuple(kernels.COVERED[kernel])))
