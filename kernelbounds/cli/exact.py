"""`kernelbounds rank-one` and `kernelbounds general-head`: exact r* at the smallest m
(THEORY U5; docs/exact-small.md)."""

from __future__ import annotations

import sys

from ..certificate import rational
from ._common import emit_json, one_stdout, output_options, positive, size_options, write_doc

EXITS = "exit codes: 0 success, 1 nothing found (which proves nothing), 2 usage error or unwritable file, 3 resource limit, 4 internal error."


def register(sub) -> None:
    p = sub.add_parser(
        "rank-one",
        help="decide rank one exactly: an explicit rank-1 head, or Farkas multipliers proving r* >= 2",
        description="Solve the rank-one LP of THEORY U5 over the extreme-class inputs (q, a, b, ..., b): a positive margin gives a rational rank-one head (an explicit-head certificate, checked on every input); none gives exact Farkas multipliers (a rank-one-infeasible certificate) that prove r*(m, n) >= 2.",
        epilog=f"{EXITS}\nexample: kernelbounds rank-one --m 4 --n 3 -o f.json",
    )
    size_options(p, m=(1, 6), n=(2, 8))
    output_options(p, "write the explicit-head or rank-one-infeasible certificate here ('-' for standard output)", "m, n, verdict (rank-one head or infeasible), worst_error or multipliers, output")
    p.set_defaults(func=run_rank_one)

    p = sub.add_parser(
        "general-head",
        help="search a general head of a given rank (alternating central LPs, or the L1 relaxation), certified exactly",
        description="Search a head of feature rank R (THEORY U5): one LP per query alternating with one LP in the key features, each solved at a central point over the active token rows, from seeded starts (every head of rank R, or with --symmetric the symmetry ansatz; with --l1 the L1 relaxation instead); a head with a positive least margin is rationalised and its exact worst error over every input decides. Finding none proves nothing.",
        epilog=f"{EXITS}\nexit 3 when --time-limit is reached without a head (one line: where the search was).\nexample: kernelbounds general-head --m 4 --n 3 --rank 2 -o h.json (under a second)",
    )
    size_options(p, m=(1, 11), n=(2, 8), m_note=" (up to 8 without --l1; at m = 11 the shipped rank-12 head took 40 minutes: --l1 --rank 12 --seed 1 --time-limit 7200)")
    p.add_argument("--rank", type=positive("--rank", 1, 64), required=True, help="feature rank R, 1..64")
    p.add_argument("--starts", type=positive("--starts", 1, 10**4), default=None, help="seeded starts from --seed on, 1..10000 (default 8; with --symmetric 1 per permutation)")
    p.add_argument("--seed", type=positive("--seed", 0, 2**31), default=0, help=f"random seed, 0..{2**31} (default 0)")
    p.add_argument("--signed", action="store_true", help="allow signed key features (the kernel stays nonnegative)")
    p.add_argument("--verbose", action="store_true", help="print the search's progress on standard error")
    p.add_argument("--symmetric", metavar="CYCLES", help="the symmetry ansatz of THEORY U5: key features equivariant under this coordinate permutation, e.g. '(012)(345)' (order k <= R; the other R - k features are functions of the pi-orbit), or 'auto' to try every cycle type of S_m of order <= R in turn")
    p.add_argument("--l1", action="store_true", help="the L1 relaxation of THEORY U5 (n = 3): a gradient search for a kernel meeting L1, integer features, one readout LP per query, exact decision; --starts seeds from --seed on")
    p.add_argument("--seconds", type=positive("--seconds", 1, 86400), default=None, help="without --l1: wall-clock seconds per start, 1..86400 (default: the time limit)")
    p.add_argument("--time-limit", type=positive("--time-limit", 1, 86400), default=900, help="wall-clock seconds for the whole search, 1..86400 (default 900); reached without a head: one line and exit 3")
    output_options(p, "write the explicit-head certificate here ('-' for standard output)", "m, n, rank, found, starts, permutation, iterations, worst_error, seconds, output (margin and timed_out instead of worst_error when nothing is found; with --l1 seed instead of permutation and iterations)")
    p.set_defaults(func=run_general)


def run_rank_one(args) -> int:
    one_stdout(args)
    say = (lambda *a, **k: None) if args.json or args.output == "-" else print
    from ..lowerbounds import rankonefarkas  # the generators (numpy, scipy): imported when the command runs
    from ..upperbounds import generalheads, rankone

    head = rankone.rank_one_head(args.m, args.n)
    if head is not None:
        err = generalheads.worst_error(head)[0]
        say(f"m = {args.m}, n = {args.n}: a rank-one head solves every input, worst error {err} (exact): r* = 1")
        if args.output:
            write_doc(generalheads.certificate(head), args.output)
        if args.json:
            emit_json({"m": args.m, "n": args.n, "verdict": "rank-one head", "worst_error": rational(err), "output": args.output})
        return 0
    cert = rankonefarkas.farkas(args.m, args.n)
    if cert is None:
        print(f"kernelbounds: the rank-one LP has no positive margin at m = {args.m}, n = {args.n}, but no exact Farkas certificate was found", file=sys.stderr)
        return 1
    say(f"m = {args.m}, n = {args.n}: no rank-one head (exact Farkas combination of {len(cert.multipliers)} input inequalities): r* >= 2")
    if args.output:
        write_doc(rankonefarkas.certificate(cert), args.output)
    if args.json:
        emit_json({"m": args.m, "n": args.n, "verdict": "infeasible", "multipliers": len(cert.multipliers), "output": args.output})
    return 0


def run_general(args) -> int:
    one_stdout(args)
    from ._common import UserError

    if args.l1 and args.symmetric:
        raise UserError("give one of --l1 and --symmetric")
    if args.l1:
        return run_l1(args)
    if args.m > 8:
        raise UserError(f"--m {args.m}: at most 8 without --l1")
    return run_central(args)


def run_central(args) -> int:
    """general-head without --l1: the library's sweep (upperbounds/symmetricsweep.py) under
    the identity (every head of the rank) or the --symmetric permutation(s), from --starts
    seeds each, with progress on a terminal (or lines with --verbose) and a wall-clock time
    limit (exit 3)."""
    from ..progress import bar
    from ..upperbounds import symmetricsweep
    from ._common import UserError

    cycles = args.symmetric or "()"
    starts = args.starts or (1 if args.symmetric else 8)
    with bar(None, "general-head", "iteration") as shown_bar:

        def report(p):
            shown_bar.set_postfix_str(p.line(), refresh=False)
            shown_bar.update(1)
            if args.verbose:
                print(p.line(), file=sys.stderr, flush=True)

        try:
            found = symmetricsweep.sweep(args.m, args.n, args.rank, cycles, args.seconds, args.time_limit, args.seed, not args.signed, report, starts=starts)
        except ValueError as exc:
            raise UserError(str(exc).replace("> rank", "> --rank")) from None
    res, last, shown, total = found.result, found.last, found.permutation, found.seconds
    if found.found is None:
        if args.json:
            emit_json({"m": args.m, "n": args.n, "rank": args.rank, "found": False, "starts": starts, "permutation": shown, "margin": res.margin if res else None,
                       "iterations": res.iterations if res else 0, "timed_out": found.out_of_time, "seconds": round(total, 3), "output": None})
        where = f"at pi = {shown}, iteration {last.iteration}, best margin {last.best:.3e}" if last else "before the first iteration"
        if found.out_of_time:
            print(f"kernelbounds: time limit of {args.time_limit} s reached {where}; no rank-{args.rank} head found at m = {args.m}, n = {args.n} (this proves nothing)", file=sys.stderr)
            return 3
        print(f"kernelbounds: no rank-{args.rank} head found at m = {args.m}, n = {args.n} ({len(found.permutations)} permutation(s), {starts} start(s) each, {total:.1f} s, "
              f"the margin stopped growing {where}); this proves nothing", file=sys.stderr)
        return 1
    how = "every head of the rank" if shown == "()" else f"pi = {shown}, {res.ansatz.t} orbit feature(s)"
    return _found(args, found.found, how, total, starts=starts, permutation=shown, iterations=res.iterations)


def _found(args, found, how: str, total: float, **extra) -> int:
    """A head found by a search: write its certificate, then the JSON object (with `extra`)
    or one line naming `how` it was found; exit 0."""
    err = found.worst_error
    if args.output:
        write_doc(found.certificate(), args.output)
    if args.json:
        emit_json({"m": args.m, "n": args.n, "rank": args.rank, "found": True, **extra, "worst_error": rational(err), "seconds": round(total, 3), "output": args.output})
    elif args.output != "-":
        print(f"m = {args.m}, n = {args.n}: a rank-{args.rank} head ({how}), worst error {float(err):.10f} (exact, every input): r* <= {args.rank}  ({total:.1f} s)")
    return 0


def run_l1(args) -> int:
    """general-head --l1: heads by the L1 relaxation (upperbounds/l1relaxation.py), seeds
    --seed, --seed + 1, ... (--starts of them) within --time-limit (exit 3 when it is reached)."""
    import time

    from ..upperbounds import l1relaxation
    from ._common import UserError

    if args.n != 3:
        raise UserError(f"--l1 is written for n = 3 (got --n {args.n})")
    if args.signed:
        raise UserError("--l1 searches signed features already (the kernel stays positive): give no --signed")
    start = time.monotonic()
    until = start + args.time_limit
    res, tried = None, 0
    for seed in range(args.seed, args.seed + (args.starts or 8)):
        left = until - time.monotonic()
        if left <= 0:
            break
        tried += 1

        def report(step, loss, slack, seed=seed):
            if args.verbose:
                print(f"seed {seed}: step {step}, loss {loss:.4g}, L1 slack {slack:.4g}", file=sys.stderr, flush=True)

        res = l1relaxation.search(args.m, args.rank, seed=seed, seconds=left, report=report)
        if args.verbose:
            print(f"seed {seed}: {res.line()}", file=sys.stderr, flush=True)
        if res.found is not None:
            break
    total = time.monotonic() - start
    if res is None or res.found is None:
        out_of_time = time.monotonic() >= until
        if args.json:
            emit_json({"m": args.m, "n": args.n, "rank": args.rank, "found": False, "starts": tried, "timed_out": out_of_time, "seconds": round(total, 3), "output": None})
        if out_of_time:
            print(f"kernelbounds: time limit of {args.time_limit} s reached after {tried} seed(s); no rank-{args.rank} head found at m = {args.m}, n = 3 (this proves nothing)", file=sys.stderr)
            return 3
        print(f"kernelbounds: no rank-{args.rank} head found by the L1 relaxation at m = {args.m}, n = 3 ({tried} seed(s), {total:.1f} s); this proves nothing", file=sys.stderr)
        return 1
    return _found(args, res.found, f"L1 relaxation, seed {res.seed}", total, seed=res.seed, starts=tried)
