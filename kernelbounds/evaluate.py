"""Exact evaluation of a user's head on a witness family or on all inputs (issue 7).

Reports the worst error, the first failing input, the exact rank of the kernel on the
tokens involved, and, for a lower-bound family whose certified bound exceeds the head's
rank, the L1 instance (keys a, b of a chain link) whose conclusion the head violates.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import flint

from .amplification import chain_keys
from .bits import comp, from_str, to_str
from .domination import dominates, factor
from .heads import TableHead
from .model import min_ip_target

HALF = Fraction(1, 2)


@dataclass
class Evaluation:
    inputs: int
    worst_error: Fraction | None  # None: some output undefined
    failures: int
    first_failure: tuple | None  # (input, position, target, output or None)
    kernel_rank: int
    tokens: int
    negative_weights: int


def kernel_rank(head: TableHead, tokens: list[int]) -> int:
    """Exact rank of [a(x, z)] over the tokens (FLINT on the integer-scaled matrix)."""
    rows = [[sum((a * b for a, b in zip(head.phi_q[x], head.phi_k[z])), Fraction(0)) for z in tokens] for x in tokens if x in head.phi_q]
    if not rows:
        return 0
    d = lcm(*(v.denominator for r in rows for v in r))
    return flint.fmpz_mat([[int(v * d) for v in r] for r in rows]).rank()


def evaluate(head: TableHead, family: list[tuple[int, ...]], scored: int | None = 0, causal: bool = False) -> Evaluation:
    """scored: the position scored in every input (None: every position)."""
    kh = head.kernel_head(causal)
    worst, failures, first = Fraction(0), 0, None
    undefined = False
    for inp in family:
        positions = range(len(inp)) if scored is None else [scored if scored >= 0 else len(inp) + scored]
        for i in positions:
            y = kh.output(inp, i)
            t = min_ip_target(inp, i)
            err = None if y is None else abs(y - t)
            if err is None or err >= HALF:
                failures += 1
                first = first or (inp, i, t, y)
            if err is None:
                undefined = True
            elif err > worst:
                worst = err
    tokens = sorted({x for inp in family for x in inp})
    negative = sum(1 for x in tokens for z in tokens if x in head.phi_q and z in head.phi_k and kh.weight(x, 0, z, 1) < 0)
    return Evaluation(len(family), None if undefined else worst, failures, first, kernel_rank(head, tokens), len(tokens), negative)


def l1_violations(head: TableHead, lb_doc: dict, limit: int = 3) -> list[str]:
    """Chain links (a, b) of the certificate where L1's conclusion D(a) > (n-2)(d-1) D(b)
    fails (domination.dominates), with D(z) = K0 + (n-1) K(z)."""
    m, n = lb_doc["m"], lb_doc["n"]
    words = [from_str(w) for w in lb_doc["code"]["words"]]
    schedules = {s["gap"]: tuple(s["levels"]) for s in lb_doc["schedules"]}
    out = []
    kh = head.kernel_head()
    for i, c_i in enumerate(words):
        q = comp(c_i, m)
        k0 = kh.weight(q, 0, q, 0)
        for j, c_j in enumerate(words):
            if i == j:
                continue
            chain = chain_keys(q, c_i, c_j, schedules[(q & c_j).bit_count()])
            for a, b in zip(chain, chain[1:]):
                d = (q & b).bit_count() - (q & a).bit_count()
                rho = factor(n, d)
                d_a, d_b = k0 + (n - 1) * kh.weight(q, 0, a, 1), k0 + (n - 1) * kh.weight(q, 0, b, 1)
                if not dominates(n, d, d_a, d_b):
                    out.append(
                        f"L1 at query {to_str(q, m)}: keys a = {to_str(a, m)} (level {(q & a).bit_count()}), "
                        f"b = {to_str(b, m)} (level {(q & b).bit_count()}): D(a) = {float(d_a):.6g} is not > "
                        f"(n-2)(d-1) D(b) = {rho} * {float(d_b):.6g}, so the head fails one of S_A, S_B, S_M"
                    )
                    if len(out) >= limit:
                        return out
    return out


def family_from_document(doc: dict) -> tuple[list[tuple[int, ...]], int, dict | None]:
    """(inputs, scored position, the lower-bound certificate or None) from a family file:
    a lower-bound certificate (listed or rule-generated family) or {"inputs": [...]}."""
    from .amplification import chain_product
    from .codes import Code
    from .lowerbound import LowerBound, witness_family
    from .rankbound import RankBound

    if doc.get("kind") == "lower-bound" and "linear" in doc.get("code", {}):
        raise ValueError("linear-code families are too large to list; use a certificate with listed words")
    if doc.get("kind") == "lower-bound":
        scored = -1 if doc["variant"] == "causal" else 0
        if "inputs" in doc.get("witness", {}):
            return [tuple(from_str(t) for t in inp) for inp in doc["witness"]["inputs"]], scored, doc
        code = Code("family", doc["m"], tuple(from_str(w) for w in doc["code"]["words"]))
        schedules = {s["gap"]: tuple(s["levels"]) for s in doc["schedules"]}
        products = {chain_product(doc["n"], lv) for lv in schedules.values()}
        lb = LowerBound(doc["m"], doc["n"], doc["variant"], code, code.gaps(), schedules, dict.fromkeys(products, 1), RankBound(doc["claims"]["bound"], doc["claims"]["k"]))
        return witness_family(lb), scored, doc
    if isinstance(doc.get("inputs"), list):
        scored = {"first": 0, "last": -1}.get(doc.get("scored", "first"), 0)
        return [tuple(from_str(t) for t in inp) for inp in doc["inputs"]], scored, None
    raise ValueError("a family file is a lower-bound certificate or an object with 'inputs'")
