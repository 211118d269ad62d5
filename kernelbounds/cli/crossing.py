"""`kernelbounds crossing`: a CP-SAT search for single-crossing cores refuting rank 2
(THEORY §2 U6), written as a `crossing` certificate (format v2)."""

from __future__ import annotations

from ._common import WITNESS_VARIANT, UserError, emit_json, one_line, one_stdout, output_options, positive, size_options, variant_option, write_doc

ALL_PAIRS_M = 6  # every unordered pair of tokens: C(2^m, 2) candidates (2016 at m = 6)


def register(sub) -> None:
    p = sub.add_parser(
        "crossing",
        help="search key pairs whose forced signs refute every head of kernel rank <= 2 (single crossing, U6)",
        description=(
            "Search, with CP-SAT, a set of key pairs (a core) such that every choice of separation directions of their "
            "L1-forced signs has a cycle of strict angle precedences (THEORY §2 U6): then no head with a nonnegative kernel "
            "of rank <= 2 solves the witness family, so r >= 3. The solver only proposes; the certificate lists one cycle "
            "per direction choice and the checker verifies each. CP-SAT is OR-Tools, the optional extra search "
            "(pip install 'kernelbounds[search]')."
        ),
        epilog="exit codes: 0 a core was found (and written), 1 no core among the candidates, 2 usage error or unwritable file, 3 the solver's time limit, 4 internal error.\nexample: kernelbounds crossing --m 5 --n 3 -o crossing.json",
    )
    size_options(p, m=(2, 8), n=(3, 64), n_note=" (the forced signs, and so the core, are the same for every n >= 3)", n_default=3)
    variant_option(p, WITNESS_VARIANT)
    p.add_argument("--all-pairs", action="store_true", help=f"search every unordered pair of tokens, not only complementary pairs (m <= {ALL_PAIRS_M})")
    p.add_argument("--time-limit", type=positive("--time-limit", 1, 3600), default=60, help="seconds per CP-SAT solve, 1..3600 (default 60)")
    output_options(p, "write the crossing certificate (format v2) here ('-' for standard output)", "m, n, variant, found, pairs, candidates, solves, witness_inputs, note")
    p.set_defaults(func=run)


def run(args) -> int:
    one_stdout(args)
    if args.all_pairs and args.m > ALL_PAIRS_M:
        raise UserError(f"--all-pairs takes C(2^m, 2) candidate pairs; it is limited to m <= {ALL_PAIRS_M}")
    from ..lowerbounds import crossing  # imported when the command runs (it loads the code library)

    result = crossing.search(args.m, complementary=not args.all_pairs, time_limit=args.time_limit)
    found = crossing.refute(args.m, args.n, args.variant, result.pairs) if result.pairs else None
    code = 0 if found is not None else 3 if "timed out" in result.note else 1
    if found is not None and args.output:
        write_doc(found.certificate(), args.output)
    if args.json:
        pairs = [[crossing.to_str(a, args.m), crossing.to_str(b, args.m)] for a, b in result.pairs] if result.pairs else None
        emit_json({"m": args.m, "n": args.n, "variant": args.variant, "found": found is not None, "pairs": pairs, "candidates": result.candidates, "solves": result.solves, "witness_inputs": found.witness_count if found else None, "note": result.note, "output": args.output})
        return code
    if args.output == "-":
        return code
    print(f"m = {args.m}, n = {args.n}, {args.variant}: {result.candidates} candidate pairs, {result.solves} CP-SAT solves: {result.note}")
    if found is not None:
        print("  core: " + ", ".join(f"({crossing.to_str(a, args.m)}, {crossing.to_str(b, args.m)})" for a, b in found.pairs))
        print(f"  all {2 ** len(found.pairs)} direction choices cyclic: r >= 3 for every head with a nonnegative kernel solving the {found.witness_count}-input witness family")
        if args.output:
            print(f"  certificate: {one_line(args.output)}")
    return code
