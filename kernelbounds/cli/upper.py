"""`kernelbounds upper`: level-kernel constructions below 2^m for a fixed length (THEORY U4)."""

from __future__ import annotations

import sys

from .. import lowerbound, upperbound
from ._common import add_json, emit_json, one_stdout, positive, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "upper",
        help="a level-kernel construction below 2^m for a fixed length n",
        description="Search level kernels h(<x,z>) whose rank sum C(m, j) over the nonzero differences is below 2^m and that solve every input of length n (THEORY U4); LPs propose, every level class is checked exactly.",
        epilog="exit codes: 0 success, 1 no level kernel found, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds upper --m 12 --n 3 -o u.json",
    )
    p.add_argument("--m", type=positive("--m", 1, 32), required=True, help="token bits, 1..32")
    p.add_argument("--n", type=positive("--n", 2, 8), required=True, help="input length, 2..8")
    p.add_argument("-o", "--output", help="write the construction certificate here ('-' for standard output)")
    add_json(p, "m, n, lower, upper, support, worst_error, nonnegative_features")
    p.set_defaults(func=run)


def run(args) -> int:
    one_stdout(args)
    c = upperbound.search(args.m, args.n)
    if c is None:
        print(f"kernelbounds: no level kernel found for m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    lower = lowerbound.best(args.m, args.n).bound if args.n >= 3 and args.m >= 2 else 1
    if args.json or args.output == "-":
        from ..certificate import rational

        if args.output:
            write_doc(upperbound.certificate(c), args.output)
        if args.json:
            err = upperbound.worst_error(c.h, c.m, c.n, c.eps)
            emit_json({"m": args.m, "n": args.n, "lower": lower, "upper": c.rank, "support": sorted(c.g), "worst_error": rational(err), "eps": rational(c.eps), "nonnegative_features": c.nonnegative_features, "output": args.output})
        return 0
    print(f"m = {args.m}, n = {args.n}: {lower} <= r* <= {c.rank}  (2^m = {2**args.m})")
    print(f"  level kernel: differences g_j != 0 for j in {sorted(c.g)}, rank = sum C(m, j) = {c.rank}, eps = {c.eps}")
    print(f"  worst error {upperbound.worst_error(c.h, c.m, c.n, c.eps)} (exact, every level class)")
    sign = "nonnegative" if c.nonnegative_features else "signed (nonnegative features of this rank: open; U2 certifies 2^m)"
    print(f"  features: {sign}")
    if args.output:
        write_doc(upperbound.certificate(c), args.output)
        print(f"  certificate: {args.output}")
    return 0
