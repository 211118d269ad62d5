"""`kernelbounds refute`: a rank refutation by oriented matroids (THEORY §2 U7): the chirotope
CNF of the L1-forced signs, solved by CaDiCaL, shrunk to a core, its proof trimmed and
written as LRAT in a `rank-refutation` certificate (format v2)."""

from __future__ import annotations

import sys
from math import comb

from ..bits import to_str
from ..lowerbounds.trimming import InvalidProof
from ._common import INVALID_PROOF, WITNESS_VARIANT, UserError, emit_json, one_line, one_stdout, output_options, positive, say, size_options, variant_option, write_doc

MAX_CLAUSES = 3_000_000  # Grassmann-Pluecker clauses of the first solve (Python builds them)
# the kernel classes a refutation states: lowerbounds.refutation.STATED_KERNELS, named here so that the
# parser is built without importing the generators (tests/cli/test_reviewer_install.py: they agree)
STATED_KERNELS = ("signed", "nonnegative")


def register(sub) -> None:
    p = sub.add_parser(
        "refute",
        help="refute every head of kernel rank <= r by a chirotope CNF and a clausal proof (U7)",
        description=(
            "Build the chirotope CNF of THEORY §2 U7 for the weight-w queries and one key pair per forced "
            "sign pattern, solve it with CaDiCaL, shrink queries and pairs greedily to a core, trim the "
            "DRAT proof to the lemmas the empty clause needs and write it as LRAT (with unit-propagation "
            "hints) in a rank-refutation certificate. UNSAT proves that no head of kernel rank <= r with "
            "positive denominators (kernel of any sign) solves the witness family, so r* >= r + 1. The "
            "solver only proposes: the checker rebuilds the CNF and replays the proof."
        ),
        epilog="exit codes: 0 refuted (and written), 1 the CNF is satisfiable (nothing proved), 2 usage error, missing solver or unwritable file, 3 the time limit passed (nothing proved), 4 internal error, 6 the solver's proof is not valid (it claimed UNSAT; nothing proved, nothing written).\nexample: kernelbounds refute --m 6 --n 3 --rank 3 -o refutation.json",
    )
    size_options(p, m=(3, 8), n=(3, 64), n_note=" (the CNF is the same for every n >= 3; only the witness family changes)", n_default=3)
    p.add_argument("--rank", type=positive("--rank", 2, 6), required=True, help="the kernel rank r to refute, 2..6")
    variant_option(p, WITNESS_VARIANT)
    p.add_argument("--kernel", choices=STATED_KERNELS, default="signed", help="the kernel class the certificate states (default signed: any sign, positive denominators)")
    p.add_argument("--weight", type=positive("--weight", 1, 8), default=2, help="the weight of the candidate queries, 1..8 (default 2)")
    p.add_argument("--fresh", action="store_true", help="run the solver even when a stored proof exists for (m, r)")
    p.add_argument("--time-limit", type=positive("--time-limit", 1, 86400), default=600, help="seconds for the whole search, 1..86400 (default 600): checked before each CNF is built and while the proof is trimmed, a running solver is stopped; exit 3")
    output_options(p, "write the rank-refutation certificate (format v2) here ('-' for standard output)", "m, n, rank, variant, kernel, refuted, queries, pairs, variables, clauses, proof_lines, witness_inputs, solver, output")
    p.set_defaults(func=run)


def run(args) -> int:
    one_stdout(args)
    from ..lowerbounds import refutation  # the generators (numpy): imported when the command runs

    k = comb(args.m, args.weight)
    if args.rank > k:
        raise UserError(f"--rank {args.rank} exceeds the number of weight-{args.weight} queries C({args.m}, {args.weight}) = {k}")
    size = 16 * comb(k, args.rank - 2) * comb(k - args.rank + 2, 4) if args.rank - 2 <= k - 4 else 0
    use_store = not args.fresh
    if (not use_store or refutation.stored(args.m, args.rank) is None) and size > MAX_CLAUSES:
        raise UserError(f"the first CNF would have about {size:,} Grassmann-Pluecker clauses, over {MAX_CLAUSES:,}: use a smaller --m, --rank or another --weight")
    log = (lambda s: None) if args.json or args.output == "-" else (lambda s: print(f"  {s}"))
    try:
        found = refutation.refute(args.m, args.n, args.rank, args.variant, args.kernel, args.weight, use_store=use_store, log=log, time_limit=args.time_limit)
    except refutation.SolverMissing as exc:
        raise UserError(str(exc)) from None
    except refutation.SolverTimeout:
        print(f"kernelbounds: m = {args.m}, rank {args.rank}: no answer within --time-limit {args.time_limit} s (nothing proved)", file=sys.stderr)
        return 3
    except InvalidProof as exc:  # the solver claims UNSAT, its proof does not show it: nothing proved, nothing written
        say(f"kernelbounds: error: the solver's proof is not valid ({exc}); nothing proved, nothing written")
        return INVALID_PROOF
    except refutation.NotRefuted as exc:  # satisfiable: nothing proved
        if args.json:
            emit_json({"m": args.m, "n": args.n, "rank": args.rank, "variant": args.variant, "kernel": args.kernel, "refuted": False, "note": str(exc), "output": None})
        elif args.output != "-":
            print(f"m = {args.m}, rank {args.rank}: {exc}")
        return 1
    if args.output:
        write_doc(found.certificate(), args.output)
    enc = found.encoding
    if args.json:
        emit_json({
            "m": args.m, "n": args.n, "rank": args.rank, "variant": args.variant, "kernel": args.kernel, "refuted": True,
            "queries": [to_str(q, args.m) for q in found.queries], "pairs": [[to_str(a, args.m), to_str(b, args.m)] for a, b in found.pairs],
            "variables": enc.variables, "clauses": len(enc.clauses), "proof_lines": len(found.proof),
            "witness_inputs": len(found.witness_inputs), "solver": found.solver, "output": args.output,
        })
        return 0
    if args.output == "-":
        return 0
    print(f"m = {args.m}, n = {args.n}, {args.variant}: kernel rank <= {args.rank} refuted, so r* >= {found.bound}")
    print(f"  core: {len(found.queries)} queries, {len(found.pairs)} key pairs; CNF {enc.variables} variables, {len(enc.clauses)} clauses; LRAT proof {len(found.proof)} lemmas ({found.solver.get('name')} {found.solver.get('version')})")
    print(f"  witness family: {len(found.witness_inputs)} inputs")
    if args.output:
        print(f"  certificate: {one_line(args.output)}")
    return 0
