"""`kernelbounds upper`: level-kernel constructions below 2^m for a fixed length (THEORY U4)."""

from __future__ import annotations

import sys

from .. import lowerbound, upperbound
from ._common import positive, write_doc


def register(sub) -> None:
    p = sub.add_parser("upper", help="a level-kernel construction below 2^m for a fixed length n")
    p.add_argument("--m", type=positive("--m", 1, 32), required=True)
    p.add_argument("--n", type=positive("--n", 2, 8), required=True)
    p.add_argument("-o", "--output")
    p.set_defaults(func=run)


def run(args) -> int:
    c = upperbound.search(args.m, args.n)
    if c is None:
        print(f"kernelbounds: no level kernel found for m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    lower = lowerbound.best(args.m, args.n).bound if args.n >= 3 and args.m >= 2 else 1
    print(f"m = {args.m}, n = {args.n}: {lower} <= r* <= {c.rank}  (2^m = {2**args.m})")
    print(f"  level kernel: differences g_j != 0 for j in {sorted(c.g)}, rank = sum C(m, j) = {c.rank}, eps = {c.eps}")
    print(f"  worst error {upperbound.worst_error(c.h, c.m, c.n, c.eps)} (exact, every level class)")
    sign = "nonnegative" if c.nonnegative_features else "signed (nonnegative features of this rank: open; U2 certifies 2^m)"
    print(f"  features: {sign}")
    if args.output:
        write_doc(upperbound.certificate(c), args.output)
        print(f"  certificate: {args.output}")
    return 0
