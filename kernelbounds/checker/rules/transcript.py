"""Rule `transcript`: a model whose answers depend on own token + transcript needs >= bits.

Checked facts (docs/certificate-format-v1.md, "transcript"), THEORY §4:
  T1  every input has n tokens of m bits; the first q tokens (the scored queries) are the
      same in every input;
  T2  the answers min_j <x_i, x_j> at positions 1..q, recomputed by brute force, lie in
      0..s and take `answer_vectors` pairwise distinct values (so V <= (s+1)^q);
  T3  bits = ceil(log2 answer_vectors) (the least b with 2^b >= V).
"""

from __future__ import annotations

from ..common import Outcome, expect_equal
from ..errors import Invalid
from ..jsonread import Node
from ..limits import Limits, require


def sizes(doc: Node, limits: Limits) -> tuple[int, int, int, int, list[Node]]:
    doc.obj({"format", "version", "kind", "q", "s", "m", "n", "inputs", "claims"})
    q = doc["q"].int(1, limit=limits.max_n)
    s = doc["s"].int(1, limit=limits.max_m)
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(q, limit=limits.max_n)
    return q, s, m, n, doc["inputs"].list(limits.max_list)


def check(doc: Node, limits: Limits) -> Outcome:
    q, s, m, n, items = sizes(doc, limits)
    work = len(items) * q * n
    require(work <= limits.max_transcript_work, "/inputs", "inner products to compute (inputs x q x n)", work, limits.max_transcript_work)
    claims = doc["claims"].obj({"answer_vectors", "bits"})
    fixed = None
    vectors: dict[tuple[int, ...], int] = {}
    for idx, item in enumerate(items):
        tokens = [t.token(m) for t in item.list(n, length=n)]
        if fixed is None:
            fixed = tokens[:q]
        elif tokens[:q] != fixed:
            raise Invalid(item.pointer, "the scored query tokens (positions 1..q) differ from the first input's")
        answer = tuple(min((x & z).bit_count() for z in tokens) for x in tokens[:q])
        if max(answer) > s:
            i = max(range(q), key=answer.__getitem__)
            raise Invalid(item.pointer, f"the answer at position {i + 1} is {answer[i]}, outside 0..s = 0..{s}")
        if answer in vectors:
            raise Invalid(item.pointer, f"its answer vector {answer} repeats input {vectors[answer]}'s")
        vectors[answer] = idx
    v = len(vectors)
    expect_equal(claims["answer_vectors"], claims["answer_vectors"].int(0), v, "the number of distinct answer vectors")
    bits = (v - 1).bit_length() if v > 1 else 0
    expect_equal(claims["bits"], claims["bits"].int(0), bits, "ceil(log2 V)")
    summary = (
        f"transcript (q={q}, s={s}, m={m}, n={n}): {v} inputs with fixed query tokens give {v} distinct answer vectors "
        f"in {{0..{s}}}^{q}, so any model answering from its own token and a cross-token transcript needs >= {bits} binary transcript symbols"
    )
    return Outcome(summary, [f"brute force: {len(items)} inputs, every answer in 0..{s}, {v} distinct answer vectors, 2^{bits} >= {v} > 2^{bits - 1}"])
