"""`kernelbounds transcript`: the transcript bound for sketch models (THEORY §4)."""

from __future__ import annotations

import math

from .. import transcript
from ._common import UserError, positive, write_doc


def register(sub) -> None:
    p = sub.add_parser("transcript", help="the transcript bound for q independent answers in {0..s}")
    p.add_argument("--q", type=positive("--q", 1, 32), required=True)
    p.add_argument("--s", type=positive("--s", 1, 64), required=True)
    p.add_argument("-o", "--output")
    p.set_defaults(func=run)


def run(args) -> int:
    if (args.s + 1) ** args.q > 10**6:
        raise UserError(f"(s+1)^q = {(args.s + 1) ** args.q} inputs is over the limit 10^6")
    tb = transcript.verify(args.q, args.s)
    real = args.q * math.log2(args.s + 1)  # a report only; the decision is the integer below
    print(f"q = {args.q}, s = {args.s}: m = {tb.m}, n = {2 * args.q}; {tb.vectors} = (s+1)^q distinct answer vectors with fixed query tokens")
    print(f"  transcript >= q log2(s+1) = {real:.4f} bits; over a binary alphabet >= {tb.bits} bits (2^{tb.bits} >= {tb.vectors})")
    if args.output:
        write_doc(transcript.certificate(args.q, args.s), args.output)
        print(f"  certificate: {args.output}")
    return 0
