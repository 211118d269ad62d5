"""`kernelbounds bound` and `kernelbounds witness`: certified lower bounds (THEORY §3)."""

from __future__ import annotations

import json
import sys

from ..lowerbound import any_certificate, best, certificate, smallest_witness, witness_count
from ..report import bound_summary
from ._common import VARIANTS, positive, write_doc


def register(sub) -> None:
    p = sub.add_parser("bound", help="the best certified lower bound on the feature rank for m and n")
    p.add_argument("--m", type=positive("--m", 2, 256), required=True)
    p.add_argument("--n", type=positive("--n", 3, 64), required=True)
    p.add_argument("--variant", choices=VARIANTS, default="position-independent")
    p.add_argument("--json", action="store_true", help="print a JSON object (m, n, lower, upper, code, min_product, k, witness_inputs, ...)")
    p.add_argument("-o", "--output", help="write the lower-bound certificate here")
    p.set_defaults(func=run_bound)

    p = sub.add_parser("witness", help="the smallest explicit witness family certifying r >= T")
    p.add_argument("--m", type=positive("--m", 2, 256), required=True)
    p.add_argument("--n", type=positive("--n", 3, 64), required=True)
    p.add_argument("--target-rank", type=positive("--target-rank", 2, 10**6), required=True)
    p.add_argument("--variant", choices=VARIANTS, default="position-independent")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(func=run_witness)


def run_bound(args) -> int:
    lb = best(args.m, args.n, args.variant)
    summary = bound_summary(lb)
    if args.output:
        write_doc(any_certificate(lb), args.output)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return 0
    s = summary
    print(f"m = {s['m']}, n = {s['n']} ({s['variant']}): {s['lower']} <= r* <= {s['upper']} (= 2^{s['m']})")
    gaps = "" if s["gaps"] is None else f", gaps {s['gaps']}"
    print(f"  code {s['code']}: N = {s['code_size']} words, weight {s['code_weight']}, min gap {s['min_gap']}{gaps}; {s['form']} form")
    if s["johnson_bound"] is not None:
        print(f"  Johnson bound for this weight and min gap: A(m, 2g, w) <= {s['johnson_bound']}")
    print(f"  least chain product min_product = {s['min_product']}, Hadamard power k = {s['k']}, witness family {s['witness_inputs']} inputs")
    if args.output:
        print(f"  certificate: {args.output}")
    return 0


def run_witness(args) -> int:
    lb = smallest_witness(args.m, args.n, args.target_rank, args.variant)
    if lb is None:
        print(f"kernelbounds: no candidate code certifies r >= {args.target_rank} at m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    write_doc(certificate(lb, listed=True), args.output)
    print(f"r >= {lb.bound} (target {args.target_rank}) from {lb.code.name}: N = {lb.code.size}, {witness_count(lb)} explicit witness inputs -> {args.output}")
    return 0
