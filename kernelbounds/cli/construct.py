"""`kernelbounds construct`: U1-U3 construction certificates (THEORY §2)."""

from __future__ import annotations

import sys

from ..constructions import CONSTRUCTIONS, ConstructionFails, certificate
from ._common import positive, write_doc


def register(sub) -> None:
    p = sub.add_parser("construct", help="write a construction certificate (U1 rank1, U2 tensor, U3 softmax)")
    p.add_argument("name", choices=["rank1", "tensor", "softmax"])
    p.add_argument("--m", type=positive("--m", 1, 64), required=True)
    p.add_argument("--n", type=positive("--n", 1, 64), required=True)
    p.add_argument("-o", "--output", help="certificate file (default: standard output)")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        doc = certificate(CONSTRUCTIONS[args.name](args.m, args.n))
    except ConstructionFails as exc:
        print(f"kernelbounds: {exc}", file=sys.stderr)
        return 1
    write_doc(doc, args.output)
    if args.output not in (None, "-"):
        claims = doc["claims"]
        print(f"wrote {args.output}: {args.name} at m={args.m}, n={args.n}, worst error {claims['worst_error']}", file=sys.stderr)
    return 0
