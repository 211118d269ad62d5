"""`kernelbounds rank-one` and `kernelbounds general-head`: exact r* at the smallest m
(THEORY U5; docs/exact-small.md)."""

from __future__ import annotations

import sys

from .. import farkas, generalheads
from ._common import positive, write_doc


def register(sub) -> None:
    p = sub.add_parser("rank-one", help="decide rank one exactly: an explicit rank-1 head, or Farkas multipliers proving r* >= 2")
    p.add_argument("--m", type=positive("--m", 1, 6), required=True)
    p.add_argument("--n", type=positive("--n", 2, 8), required=True)
    p.add_argument("-o", "--output", help="write the explicit-head or rank-one-infeasible certificate here")
    p.set_defaults(func=run_rank_one)

    p = sub.add_parser("general-head", help="search a general head of a given rank (psi by alternating LPs), certified exactly")
    p.add_argument("--m", type=positive("--m", 1, 8), required=True)
    p.add_argument("--n", type=positive("--n", 2, 8), required=True)
    p.add_argument("--rank", type=positive("--rank", 1, 64), required=True)
    p.add_argument("--starts", type=positive("--starts", 1, 10**4), default=8)
    p.add_argument("--seed", type=positive("--seed", 0, 2**31), default=0)
    p.add_argument("--signed", action="store_true", help="allow signed key features (the kernel stays nonnegative)")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("-o", "--output", help="write the explicit-head certificate here")
    p.set_defaults(func=run_general)


def run_rank_one(args) -> int:
    head = farkas.rank_one_head(args.m, args.n)
    if head is not None:
        err = generalheads.worst_error(head)[0]
        print(f"m = {args.m}, n = {args.n}: a rank-one head solves every input, worst error {err} (exact): r* = 1")
        if args.output:
            write_doc(generalheads.certificate(head), args.output)
        return 0
    cert = farkas.farkas(args.m, args.n)
    if cert is None:
        print(f"kernelbounds: the rank-one LP has no positive margin at m = {args.m}, n = {args.n}, but no exact Farkas certificate was found", file=sys.stderr)
        return 1
    print(f"m = {args.m}, n = {args.n}: no rank-one head (exact Farkas combination of {len(cert.multipliers)} input inequalities): r* >= 2")
    if args.output:
        write_doc(farkas.certificate(cert), args.output)
    return 0


def run_general(args) -> int:
    res = generalheads.search(args.m, args.n, args.rank, starts=args.starts, seed=args.seed, nonnegative=not args.signed, verbose=args.verbose)
    if res.head is None:
        print(f"kernelbounds: no rank-{args.rank} head found at m = {args.m}, n = {args.n} (best least margin {res.margin:.6f}, {res.starts} starts, {res.seconds:.1f} s); this proves nothing", file=sys.stderr)
        return 1
    err = generalheads.worst_error(res.head)[0]
    print(f"m = {args.m}, n = {args.n}: a rank-{args.rank} head, worst error {err} (exact, every input): r* <= {args.rank}  ({res.starts} starts, {res.seconds:.1f} s)")
    if args.output:
        write_doc(generalheads.certificate(res.head), args.output)
    return 0
