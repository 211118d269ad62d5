"""`kernelbounds rank`: exact ranks of kernel matrices (formula and FLINT), rank certificates."""

from __future__ import annotations

import sys

from .. import rank
from ..heads import HeadError, load
from ._common import CONTRADICTION, UserError, positive, rationals, read_text, write_doc


def register(sub) -> None:
    p = sub.add_parser("rank", help="exact rank of a kernel matrix over all m-bit tokens")
    p.add_argument("--kernel", choices=["tensor", "softmax", "level", "inner", "disjoint"])
    p.add_argument("--head", help="a head file (docs/head-format-v1.md): the rank of its kernel over its tokens")
    p.add_argument("--m", type=positive("--m", 1, 4096))
    p.add_argument("--n", type=positive("--n", 1, 64), default=3, help="length for tensor/softmax (c = 1/(2n-1))")
    p.add_argument("--c", type=lambda t: rationals(t)[0], help="tensor kernel base c (default 1/(2n-1))")
    p.add_argument("--h", type=rationals, help="level kernel h(0),...,h(m) as rationals")
    p.add_argument("--max-matrix-m", type=positive("--max-matrix-m", 1, 14), default=12)
    p.add_argument("-o", "--output", help="write a rank certificate")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.head:
        return _rank_of_head(args)
    if args.kernel is None or args.m is None:
        raise UserError("give --kernel and --m, or --head FILE")
    try:
        h = rank.named_kernel(args.kernel, args.m, n=args.n, c=args.c, h=args.h)
        formula = rank.formula_rank(h, args.m)  # raises ValueError for a malformed h
    except ValueError as exc:
        raise UserError(str(exc)) from None
    print(f"kernel {args.kernel} on m = {args.m} bits: h = ({', '.join(str(x) for x in h[:6])}{', ...' if len(h) > 6 else ''})")
    print(f"  level-expansion formula: rank = {formula}  (sum of C(m, j) over j with Delta^j h(0) != 0)")
    facts = rank.level_rank(h, args.m, args.max_matrix_m)
    if facts.flint is not None:
        print(f"  FLINT exact rank of the {2**args.m} x {2**args.m} matrix: {facts.flint}  (build {facts.build_seconds:.2f} s, rank {facts.rank_seconds:.2f} s)")
        if facts.contradicts_theory:
            print("kernelbounds: the formula and FLINT disagree: this contradicts THEORY §2", file=sys.stderr)
            return CONTRADICTION
    else:
        print(f"  full matrix skipped (m > {args.max_matrix_m}); the formula is exact by the level expansion")
    if args.output:
        if args.m > 12:
            raise UserError("rank certificates are written for m <= 12 (the checker builds the minor)")
        doc = rank.certificate(h, args.m, args.kernel)
        write_doc(doc, args.output)
        rows = doc["lower"]["rows"]
        size = 2**args.m if rows == "all" else len(rows)
        print(f"  certificate: {args.output} (lower side: a {size} x {size} minor nonsingular modulo the prime {doc['lower']['prime']}; upper side: the level expansion)")
    print(formula)
    return 0


def _rank_of_head(args) -> int:
    try:
        head = load(read_text(args.head))
    except HeadError as exc:
        raise UserError(f"{args.head}: {exc}") from None
    if len(head.phi_q) > 4096:
        raise UserError("heads with more than 4096 tokens are over the limit")
    tokens, rows = rank.head_rows(head)
    exact = rank.flint_rank(rows)
    print(f"head {args.head}: feature dimension {head.rank}, kernel over its {len(tokens)} tokens has exact rank {exact} (FLINT)")
    if args.output:
        write_doc(rank.head_certificate(head), args.output)
        print(f"  certificate: {args.output}")
    print(exact)
    return 0
