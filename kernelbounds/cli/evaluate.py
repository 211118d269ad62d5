"""`kernelbounds evaluate`: a user's head on a witness family or on all inputs (THEORY §1)."""

from __future__ import annotations

import json
import sys

from ..heads import evaluate as ev
from ..bits import to_str
from ..heads.inputs import FamilyError, load_family
from ..heads.tables import HeadError, load
from ._common import CONTRADICTION, UserError, add_json, emit_json, positive, read_input

HELP = """Evaluate a head file (docs/head-format-v1.md) exactly on a family: a lower-bound
certificate's witness family (streamed: the m = 24, n = 3 family has 13,279,280 inputs),
an {"inputs": [...], "scored": "first"|"last"|"all"} file, or every input of length --n
over {0,1}^--m (every position).  Large families take a float pass with a rigorous
error bound and an exact re-check of every undecided position (docs/api.md)."""

EPILOG = """exit codes: 0 the head solves the family, 1 it fails some scored position,
2 usage or malformed file, 3 estimated time over --max-seconds, 4 internal error,
5 the head contradicts the certified bound (keep the head file and report it).
example: kernelbounds evaluate --head head.json --family certificates/witness-m24-n3-r8.json --json"""


def register(sub) -> None:
    p = sub.add_parser("evaluate", help="evaluate a head exactly on a witness family or on all inputs", description=HELP, epilog=EPILOG)
    p.add_argument("--head", help="head file, '-' for standard input (required unless --list-tokens)")
    p.add_argument("--family", help="a lower-bound certificate or {\"inputs\": [...]} file ('-' for standard input)")
    p.add_argument("--m", type=positive("--m", 1, 20), help="with --n: every input over {0,1}^m (1..20, 2^(m n) <= 2^20)")
    p.add_argument("--n", type=positive("--n", 1, 20), help="input length for --m (1..20)")
    p.add_argument("--list-tokens", action="store_true", help="print the tokens the family needs (one per line, bit i = character i) and stop")
    route = p.add_mutually_exclusive_group()
    route.add_argument("--exact", action="store_true", help="exact arithmetic at every position (default for families of <= 20,000 inputs)")
    route.add_argument("--float-pass", action="store_true", help="float pass with exact re-checks even for small families")
    p.add_argument("--max-seconds", type=positive("--max-seconds", 1, 10**7), default=3600, help="refuse (exit 3) when the estimated time is above this many seconds, 1..10^7 (default 3600)")
    add_json(p, "the evaluation")
    p.set_defaults(func=run)


def _family(args):
    if args.family and (args.m is not None or args.n is not None):
        raise UserError("--m/--n describe all inputs of {0,1}^m; with --family the family gives m and n: drop them")
    if args.family:
        try:
            doc = json.loads(read_input(args.family))
        except ValueError as exc:
            raise UserError(f"{args.family}: not JSON ({exc})") from None
        try:
            family = load_family(doc)
        except FamilyError as exc:
            raise UserError(f"{args.family}: {exc}") from None
        return family, f"the {family.size}-input family {args.family}"
    if args.m is None or args.n is None:
        raise UserError("give --family FILE or both --m and --n")
    if 2 ** (args.m * args.n) > 2**20:
        raise UserError(f"2^(m n) = 2^{args.m * args.n} inputs is over the limit 2^20")
    from itertools import product

    from ..heads.inputs import Family

    inputs = tuple(product(range(2**args.m), repeat=args.n))
    family = Family(args.m, args.n, "all", len(inputs), None, _listed=inputs)
    return family, f"all {len(inputs)} inputs of length {args.n} over {{0,1}}^{args.m}, every position"


def run(args) -> int:
    family, what = _family(args)
    if args.list_tokens:
        tokens = [to_str(x, family.m) for x in family.tokens()]
        if args.json:
            emit_json({"m": family.m, "n": family.n, "tokens": tokens, "count": len(tokens)})
        else:
            sys.stdout.write("".join(t + "\n" for t in tokens))
        return 0
    if not args.head:
        raise UserError("give --head FILE (or --list-tokens)")
    try:
        head = load(read_input(args.head))
    except HeadError as exc:
        raise UserError(f"{args.head}: {exc}") from None
    if head.m != family.m:
        raise UserError(f"the family's tokens have m = {family.m} bits, the head's m = {head.m}")
    exact = True if args.exact else (False if args.float_pass else None)
    route_exact = exact if exact is not None else family.size <= 20_000
    estimate = ev.estimate_seconds(family, head, exact=route_exact)
    if estimate > args.max_seconds:
        print(f"kernelbounds: evaluating {family.size} inputs would take about {estimate:.0f} s, over --max-seconds {args.max_seconds}", file=sys.stderr)
        return 3
    if estimate > 10:
        print(f"kernelbounds: evaluating {family.size} inputs ({'exact' if route_exact else 'float pass + exact re-checks'}), about {estimate:.0f} s", file=sys.stderr)
    try:
        result = ev.evaluate_family(head, family, exact=exact)
    except HeadError as exc:
        raise UserError(str(exc)) from None
    cert = family.certificate
    bound = cert["claims"]["bound"] if cert is not None and "claims" in cert else None
    contradiction = bound is not None and result.kernel_rank < bound and result.failures == 0 and result.negative_weights == 0
    violations = ev.l1_violations(head, cert) if bound is not None and result.kernel_rank < bound and not contradiction else []
    if args.json:
        out = result.to_json()
        out.update(head_rank=head.rank, certified_bound=bound, contradiction=contradiction, l1_violations=violations, seconds=round(result.seconds, 3))
        emit_json(out)
    else:
        _print(result, head, what, bound, violations)
    if contradiction:
        print("kernelbounds: THIS HEAD CONTRADICTS THE CERTIFIED BOUND: keep the head file and report it", file=sys.stderr)
        return CONTRADICTION
    return 0 if result.failures == 0 else 1


def _print(result, head, what, bound, violations) -> None:
    worst = "undefined (a denominator is <= 0)" if result.worst_error is None else f"{result.worst_error} (~{float(result.worst_error):.4f})"
    print(f"head of feature rank {head.rank} on {what}")
    print(f"  worst error {worst}; {result.failures} failing scored positions")
    if result.method != "exact":
        print(f"  route: float pass with error bound, {result.rechecked} positions re-checked exactly; every error <= {result.worst_error_bound:.6g}; {result.seconds:.1f} s")
    print(f"  exact kernel rank on the {result.tokens} tokens involved: {result.kernel_rank}; negative kernel values: {result.negative_weights}")
    if result.first_failure:
        inp, i, t, y = result.first_failure
        shown = "undefined" if y is None else f"{y} (~{float(y):.4f})"
        print(f"  first failing input (position {i + 1}, target {t}, output {shown}): {' '.join(to_str(x, head.m) for x in inp)}")
    if bound is not None:
        print(f"  certified bound for this family: r >= {bound}")
        for line in violations:
            print(f"  {line}")
