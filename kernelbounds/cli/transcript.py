"""`kernelbounds transcript`: the transcript bound for sketch models (THEORY §4)."""

from __future__ import annotations

import math

from ..lowerbounds import transcript
from ._common import UserError, emit_json, one_line, one_stdout, output_options, positive, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "transcript",
        help="the transcript bound for q independent answers in {0..s}",
        description="Build the fooling family of THEORY §4 for q independent answers in {0..s} (m = (q+1)s, n = 2q), verify by brute force that the (s+1)^q answer vectors are distinct, and report the transcript bits it forces.",
        epilog="exit codes: 0 success, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds transcript --q 3 --s 4 -o tr.json",
    )
    p.add_argument("--q", type=positive("--q", 1, 32), required=True, help="independent answers, 1..32 ((s+1)^q <= 10^6)")
    p.add_argument("--s", type=positive("--s", 1, 64), required=True, help="answer range {0..s}, 1..64")
    output_options(p, "write the transcript certificate here ('-' for standard output)", "q, s, m, n, answer_vectors, bits")
    p.set_defaults(func=run)


def run(args) -> int:
    one_stdout(args)
    if (args.s + 1) ** args.q > 10**6:
        raise UserError(f"(s+1)^q = {(args.s + 1) ** args.q} inputs is over the limit 10^6")
    tb = transcript.verify(args.q, args.s)
    if args.json or args.output == "-":
        if args.output:
            write_doc(transcript.certificate(args.q, args.s), args.output)
        if args.json:
            emit_json({"q": args.q, "s": args.s, "m": tb.m, "n": 2 * args.q, "answer_vectors": tb.vectors, "bits": tb.bits, "output": args.output})
        return 0
    real = args.q * math.log2(args.s + 1)  # a report only; the decision is the integer below
    print(f"q = {args.q}, s = {args.s}: m = {tb.m}, n = {2 * args.q}; {tb.vectors} = (s+1)^q distinct answer vectors with fixed query tokens")
    print(f"  transcript >= q log2(s+1) = {real:.4f} bits; over a binary alphabet >= {tb.bits} bits (2^{tb.bits} >= {tb.vectors})")
    if args.output:
        write_doc(transcript.certificate(args.q, args.s), args.output)
        print(f"  certificate: {one_line(args.output)}")
    return 0
