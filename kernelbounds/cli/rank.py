"""`kernelbounds rank`: exact ranks of kernel matrices (formula and FLINT), rank certificates."""

from __future__ import annotations

import sys

from ..heads.tables import HeadError, load
from ._common import CONTRADICTION, UserError, emit_json, one_stdout, output_options, positive, rationals, read_input, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "rank",
        help="exact rank of a kernel matrix over all m-bit tokens",
        description="The exact rank of a level kernel h(<x,z>) over all m-bit tokens: by the level-expansion formula (sum of C(m, j) over the nonzero forward differences, THEORY §2) and, up to --max-matrix-m, by FLINT on the full 2^m x 2^m matrix; or the exact rank of a head file's kernel over its tokens.",
        epilog="exit codes: 0 success, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds rank --kernel tensor --m 12 --json",
    )
    p.add_argument("--kernel", choices=["tensor", "softmax", "level", "inner", "disjoint"], help="tensor c^l, softmax (2n-1)^-l, level (give --h), inner l, disjoint [l = 0]")
    p.add_argument("--head", help="a head file (docs/head-format-v1.md; '-' for standard input): the rank of its kernel over its tokens")
    p.add_argument("--m", type=positive("--m", 1, 4096), help="token bits, 1..4096")
    p.add_argument("--n", type=positive("--n", 1, 64), help="length for tensor/softmax, 1..64 (default 3: c = 1/(2n-1))")
    p.add_argument("--c", type=lambda t: rationals(t)[0], help="tensor kernel base c, a rational (default 1/(2n-1)); only with --kernel tensor")
    p.add_argument("--h", type=rationals, help="level kernel h(0),...,h(m) as comma-separated rationals; only with --kernel level")
    p.add_argument("--max-matrix-m", type=positive("--max-matrix-m", 1, 14), help="build the full matrix for FLINT up to this m, 1..14 (default 12)")
    output_options(p, "write a rank certificate ('-' for standard output)", "kernel, m, rank, formula, flint")
    p.set_defaults(func=run)


def run(args) -> int:
    one_stdout(args)
    if args.head:
        given = [f"--{k.replace('_', '-')}" for k in ("kernel", "m", "n", "c", "h", "max_matrix_m") if getattr(args, k) is not None]
        if given:
            raise UserError(f"--head takes the kernel from the head file: drop {', '.join(given)}")
        return _rank_of_head(args)
    if args.n is not None and args.kernel is not None and args.kernel not in ("tensor", "softmax"):
        raise UserError(f"--n sets the base of the tensor/softmax kernels; the {args.kernel} kernel does not use it")
    args.n = 3 if args.n is None else args.n
    args.max_matrix_m = 12 if args.max_matrix_m is None else args.max_matrix_m
    if args.kernel is None or args.m is None:
        raise UserError("give --kernel and --m, or --head FILE")
    if args.c is not None and args.kernel != "tensor":
        raise UserError(f"--c is the base of the tensor kernel; the {args.kernel} kernel does not use it")
    if args.h is not None and args.kernel != "level":
        raise UserError(f"--h gives a level kernel's values; use it with --kernel level, not {args.kernel}")
    out = print if not (args.json or args.output == "-") else (lambda *a, **k: None)
    from .. import kernelrank as rank  # numpy: imported when the command runs

    try:
        h = rank.named_kernel(args.kernel, args.m, n=args.n, c=args.c, h=args.h)
        formula = rank.formula_rank(h, args.m)  # raises ValueError for a malformed h
    except ValueError as exc:
        raise UserError(str(exc)) from None
    out(f"kernel {args.kernel} on m = {args.m} bits: h = ({', '.join(str(x) for x in h[:6])}{', ...' if len(h) > 6 else ''})")
    out(f"  level-expansion formula: rank = {formula}  (sum of C(m, j) over j with Delta^j h(0) != 0)")
    exact = None
    from ..progress import status

    size = 2**args.m
    with status(f"  FLINT: building the {size} x {size} kernel matrix and its exact rank (one C call without progress: 10 to 30 s at m = 12)") if args.m >= 10 and args.m <= args.max_matrix_m else _nothing():
        facts = rank.level_rank(h, args.m, args.max_matrix_m)
    if facts.flint is not None:
        exact = facts.flint
        out(f"  FLINT exact rank of the {2**args.m} x {2**args.m} matrix: {facts.flint}  (build {facts.build_seconds:.2f} s, rank {facts.rank_seconds:.2f} s)")
        if facts.contradicts_theory:
            print("kernelbounds: the formula and FLINT disagree: this contradicts THEORY §2", file=sys.stderr)
            return CONTRADICTION
    else:
        out(f"  full matrix skipped (m > {args.max_matrix_m}); the formula is exact by the level expansion")
    if args.output:
        if args.m > 12:
            raise UserError("rank certificates are written for m <= 12 (the checker builds the minor)")
        with status(f"  certificate: a nonsingular {size} x {size} minor modulo a prime (FLINT)") if args.m >= 10 else _nothing():
            doc = rank.certificate(h, args.m, args.kernel)
        write_doc(doc, args.output)
        rows = doc["lower"]["rows"]
        size = 2**args.m if rows == "all" else len(rows)
        out(f"  certificate: {args.output} (lower side: a {size} x {size} minor nonsingular modulo the prime {doc['lower']['prime']}; upper side: the level expansion)")
    if args.json:
        from ..api import Rank

        emit_json({**Rank(args.kernel, args.m, formula, formula, exact, tuple(h)).to_json(), "output": args.output})
    else:
        out(formula)
    return 0


def _rank_of_head(args) -> int:
    try:
        head = load(read_input(args.head))
    except HeadError as exc:
        raise UserError(f"{args.head}: {exc}") from None
    if len(head.phi_q) > 4096:
        raise UserError("heads with more than 4096 tokens are over the limit")
    from .. import kernelrank as rank

    tokens, rows = rank.head_rows(head)
    exact = rank.flint_rank(rows)
    out = print if not (args.json or args.output == "-") else (lambda *a, **k: None)
    out(f"head {args.head}: feature dimension {head.rank}, kernel over its {len(tokens)} tokens has exact rank {exact} (FLINT)")
    if args.output:
        write_doc(rank.head_certificate(head), args.output)
        out(f"  certificate: {args.output}")
    if args.json:
        from ..api import Rank

        emit_json({**Rank("head", head.m, exact, None, exact, None, head.rank, len(tokens)).to_json(), "output": args.output})
    else:
        out(exact)
    return 0


def _nothing():
    import contextlib

    return contextlib.nullcontext()
