"""`kernelbounds construct`: U1-U3 construction certificates (THEORY §2)."""

from __future__ import annotations

import sys

from ..upperbounds.constructions import CONSTRUCTIONS, ConstructionFails, certificate
from ._common import emit_json, one_line, one_stdout, output_options, size_options, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "construct",
        help="write a construction certificate (U1 rank1, U2 tensor, U3 softmax)",
        description="Build U1 (rank1: rank 1, n <= 2), U2 (tensor: 2^m nonnegative features) or U3 (softmax: m-dimensional scores) for m-bit tokens and length n (THEORY §2), verify it exactly by level classes and write its certificate.",
        epilog="exit codes: 0 success, 1 the construction does not solve length n (e.g. rank1 with n >= 3; nothing is written), 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexit 3 when C(m+n, n) level classes exceed the checker limit max_level_classes (3,000,000).\nexample: kernelbounds construct tensor --m 6 --n 3 -o t.json",
    )
    p.add_argument("name", choices=["rank1", "tensor", "softmax"], help="the construction")
    size_options(p, m=(1, 64), n=(1, 64))
    output_options(p, "certificate file, '-' for standard output (the default without --json)", "a summary (kind, m, n, worst_error, feature_rank, kernel_rank); the certificate then goes only to -o")
    p.set_defaults(func=run)


def run(args) -> int:
    one_stdout(args)
    from ..checker import Limits
    from ..classes import class_count

    classes, limit = class_count(args.m, args.n), Limits().max_level_classes
    if classes > limit:  # refuse before any work (the checker would refuse the file too)
        print(f"kernelbounds: m = {args.m}, n = {args.n} has C(m+n, n) = {classes} level classes, over the limit {limit}", file=sys.stderr)
        return 3
    try:
        doc = certificate(CONSTRUCTIONS[args.name](args.m, args.n))
    except ConstructionFails as exc:
        print(f"kernelbounds: {exc}", file=sys.stderr)
        return 1
    if args.json:
        claims = doc["claims"]
        if args.output:
            write_doc(doc, args.output)
        emit_json({"kind": args.name, "m": args.m, "n": args.n, "worst_error": claims["worst_error"], "feature_rank": claims.get("feature_rank"), "kernel_rank": claims["kernel_rank"], "output": args.output})
        return 0
    write_doc(doc, args.output)
    if args.output not in (None, "-"):
        claims = doc["claims"]
        print(f"wrote {one_line(args.output)}: {args.name} at m={args.m}, n={args.n}, worst error {claims['worst_error']}", file=sys.stderr)
    return 0
