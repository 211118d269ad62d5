"""`kernelbounds bound` and `kernelbounds witness`: certified lower bounds (THEORY §3)."""

from __future__ import annotations

import sys

from ..lowerbounds.assemble import any_certificate, best, certificate, smallest_witness, witness_count
from ..report import bound_summary
from ._common import VARIANTS, UserError, add_json, emit_json, one_stdout, positive, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "bound",
        help="the best certified lower bound on the feature rank for m and n",
        description="Search the candidate codes and linear-code weight classes for the best certified lower bound lower <= r* <= 2^m (THEORY §3, L4-L6) and optionally write its lower-bound certificate.",
        epilog="exit codes: 0 success, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds bound --m 24 --n 3 --json -o lb.json",
    )
    p.add_argument("--m", type=positive("--m", 2, 256), required=True, help="token bits, 2..256")
    p.add_argument("--n", type=positive("--n", 3, 64), required=True, help="input length, 3..64")
    p.add_argument("--variant", choices=VARIANTS, default="position-independent", help="the head class (THEORY L5; default position-independent)")
    p.add_argument("--json", action="store_true", help="print a JSON object (m, n, lower, upper, code, min_product, k, witness_inputs, ...)")
    p.add_argument("-o", "--output", help="write the lower-bound certificate here")
    p.set_defaults(func=run_bound)

    p = sub.add_parser(
        "witness",
        help="the smallest explicit witness family certifying r >= T",
        description="Find the smallest witness family (shortest code prefix) certifying r >= T and write a lower-bound certificate that lists every input.",
        epilog="exit codes: 0 success, 1 no candidate code reaches T, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds witness --m 24 --n 3 --target-rank 8 -o w.json",
    )
    p.add_argument("--m", type=positive("--m", 2, 256), required=True, help="token bits, 2..256")
    p.add_argument("--n", type=positive("--n", 3, 64), required=True, help="input length, 3..64")
    p.add_argument("--target-rank", type=positive("--target-rank", 2, 10**6), required=True, help="T, 2..10^6")
    p.add_argument("--variant", choices=VARIANTS, default="position-independent", help="default position-independent")
    p.add_argument("-o", "--output", required=True, help="the certificate with the listed family ('-' for standard output)")
    add_json(p, "a summary (as bound --json)")
    p.set_defaults(func=run_witness)


def run_bound(args) -> int:
    one_stdout(args)
    lb = best(args.m, args.n, args.variant)
    summary = bound_summary(lb)
    if args.output:
        if lb.size == 0:
            raise UserError(f"m = {args.m}: no code with two words at gap >= 2 fits, so only the trivial bound r >= 1 holds; there is no certificate to write")
        write_doc(any_certificate(lb), args.output)
    if args.json:
        emit_json(summary)
        return 0
    s = summary
    print(f"m = {s['m']}, n = {s['n']} ({s['variant']}): {s['lower']} <= r* <= {s['upper']} (= 2^{s['m']})")
    if lb.size == 0:
        print(f"  {s['form']}: no code with two words at gap >= 2 fits in {s['m']} bits, so only the trivial r >= 1 (any head solving one input has a nonzero kernel)")
        return 0
    gaps = "" if s["gaps"] is None else f", gaps {s['gaps']}"
    orbits = "" if s["orbits"] is None else f", {s['orbits']} orbits"
    print(f"  code {s['code']}: N = {s['code_size']} words, weight {s['code_weight']}, min gap {s['min_gap']}{gaps}; {s['form']} form{orbits}")
    if s["johnson_bound"] is not None:
        print(f"  Johnson bound for this weight and min gap: A(m, 2g, w) <= {s['johnson_bound']}")
    print(f"  least chain product min_product = {s['min_product']}, Hadamard power k = {s['k']}, witness family {s['witness_inputs']} inputs")
    if args.output:
        print(f"  certificate: {args.output}")
    return 0


def run_witness(args) -> int:
    one_stdout(args)
    lb = smallest_witness(args.m, args.n, args.target_rank, args.variant)
    if lb is None:
        print(f"kernelbounds: no candidate code certifies r >= {args.target_rank} at m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    write_doc(certificate(lb, listed=True), args.output)
    if getattr(args, "json", False):
        if args.output != "-":
            emit_json(bound_summary(lb) | {"target_rank": args.target_rank, "output": args.output})
        return 0
    if args.output == "-":
        return 0
    print(f"r >= {lb.bound} (target {args.target_rank}) from {lb.code.name}: N = {lb.code.size}, {witness_count(lb)} explicit witness inputs -> {args.output}")
    return 0
