"""`kernelbounds evaluate`: a user's head on a witness family or on all inputs (THEORY §1)."""

from __future__ import annotations

from ..errors import KernelboundsError
import contextlib
import json
import sys

from ..bits import to_str
from ..shown import approx, shown
from ..heads.tables import HeadError, load
from ..heads.timelimit import TimeLimit
from ._common import CONTRADICTION, UserError, add_json, emit_json, one_line, one_stdout, positive, read_input, resolve_certificate, write_doc

HELP = """Evaluate a head file (docs/head-format-v1.md) exactly on a family: a lower-bound
certificate's witness family (streamed: the m = 24, n = 3 family has 13,279,280 inputs),
an {"inputs": [...], "scored": "first"|"last"|"all"} file, or --all: every input of
length --n over {0,1}^--m at every position, decided through the extreme-class inputs
(q, a, b, ..., b) without listing the 2^(m n) inputs (docs/api.md, "Every input").  Large
families take a float pass with a rigorous error bound and exact re-checks of every
undecided position or class, so exact arithmetic decides.  A head that solves every input
can be written as an explicit-head certificate (-o FILE; `kernelbounds check` verifies it);
a failing head gets its worst input and the THEORY L1 explanation."""

EPILOG = """exit codes: 0 the head solves the family, 1 it fails some scored position,
2 usage or malformed file (also a family certificate the checker rejects: its bound is
the checker's verdict, never the file's own claim), 3 estimated time over --max-seconds or
the checker's resource limit on the family file, 4 internal error,
5 the head contradicts the certified bound (keep the head file and report it).
example: kernelbounds evaluate --family witness-m24-n3-r8.json --list-tokens
example: kernelbounds evaluate --head head.json --family witness-m24-n3-r8.json --json   (head.json: a head file on those tokens, README writes one; exit 1: it fails)
example: kernelbounds evaluate --all --m 8 --n 3 --head head8.json -o head-cert.json   (head8.json: a head on every token at m = 8, README writes one)"""


def register(sub) -> None:
    p = sub.add_parser("evaluate", help="evaluate a head exactly on a witness family or on every input", description=HELP, epilog=EPILOG)
    p.add_argument("--head", help="head file, '-' for standard input (required unless --list-tokens)")
    p.add_argument("--family", help="a lower-bound certificate or {\"inputs\": [...]} file ('-' for standard input)")
    p.add_argument("--all", action="store_true", help="every input of length --n over {0,1}^--m, every position (the extreme-class route)")
    p.add_argument("--m", type=positive("--m", 1, 16), help="with --all: token bits, 1..16 (the route costs about 4^m (m + 1) steps)")
    p.add_argument("--n", type=positive("--n", 1, 64), help="with --all: input length, 1..64")
    p.add_argument("--list-tokens", action="store_true", help="print the tokens the family needs (one per line, bit i = character i) and stop")
    route = p.add_mutually_exclusive_group()
    route.add_argument("--exact", action="store_true", help="exact arithmetic at every position or class (default for families of <= 20,000 inputs and for --all with m <= 5)")
    route.add_argument("--float-pass", action="store_true", help="float pass with exact re-checks even for small families")
    p.add_argument("-o", "--output", help="with --all: write the explicit-head certificate of a head that solves every input ('-' for standard output); m <= 8")
    p.add_argument("--max-seconds", type=positive("--max-seconds", 1, 10**7), default=3600, help="refuse (exit 3) when the estimated time (counting the sizes of the head's numbers) is above this many seconds, and stop (exit 3) when the evaluation runs past it, 1..10^7 (default 3600)")
    add_json(p, "the evaluation (the same object as the Python API's Evaluation.to_json(), plus output)")
    p.set_defaults(func=run)


def _family(args):
    given = args.m is not None or args.n is not None
    if args.family and (given or args.all):
        raise UserError("--all/--m/--n describe every input of {0,1}^m; with --family the family gives m and n: drop them")
    if args.output and not args.all:
        raise UserError("-o writes the certificate of a head that solves every input: it needs --all --m M --n N")
    from ..heads.familycheck import FamilyRejected, checked_claim  # the generators (numpy): imported when the command runs
    from ..heads.inputs import Family, FamilyError, load_family

    if args.family:
        try:
            doc = json.loads(read_input(resolve_certificate(args.family)))
        except ValueError as exc:
            raise UserError(f"{args.family}: not JSON ({exc})") from None
        try:
            family = load_family(doc)
            if family.certificate is not None:  # its bound is the checker's verdict: checked before any evaluation
                checked_claim(family.certificate)
        except FamilyRejected as exc:
            raise FamilyRefused(exc.code, f"{args.family}: {exc}") from None
        except FamilyError as exc:
            raise UserError(f"{args.family}: {exc}") from None
        return family, f"the {family.size}-input family {args.family}"
    if args.m is None or args.n is None:
        raise UserError("give --family FILE, or --all with --m and --n")
    family = Family.all(args.m, args.n)
    return family, f"all 2^{args.m * args.n} inputs of length {args.n} over {{0,1}}^{args.m}, every position"


class FamilyRefused(KernelboundsError):
    """The checker rejects the family's certificate: exit 2 (3 for a resource limit, 4 for an
    internal error), never a verdict on the head."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = 2 if code in (1, 2) else code


def run(args) -> int:
    one_stdout(args)
    try:
        family, what = _family(args)
    except FamilyRefused as exc:
        print(one_line(f"kernelbounds: error: {exc}"), file=sys.stderr)
        return exc.code
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
        raise UserError(f"the head's tokens have m = {head.m} bits but the family's have m = {family.m}")
    from ..heads import evaluate as ev

    exact = True if args.exact else (False if args.float_pass else None)
    route_exact = exact if exact is not None else (family.m <= 5 if family.everything else family.size <= 20_000)
    estimate = ev.estimate_seconds(family, head, exact=route_exact)
    if estimate > args.max_seconds:
        print(f"kernelbounds: evaluating {what} would take about {estimate:.0f} s, over --max-seconds {args.max_seconds}", file=sys.stderr)
        return 3
    if estimate > 10:
        print(f"kernelbounds: evaluating {what} ({'exact' if route_exact else 'float pass + exact re-checks'}), about {estimate:.0f} s", file=sys.stderr)
    try:
        result = ev.evaluate_family(head, family, exact=exact, max_seconds=args.max_seconds)
    except HeadError as exc:
        raise UserError(str(exc)) from None
    except TimeLimit as exc:  # the estimate was low (the limit is enforced while it runs)
        print(f"kernelbounds: evaluating {what}: {exc} (--max-seconds {args.max_seconds})", file=sys.stderr)
        return 3
    written = _write_certificate(result, args.output) if args.output else None
    if args.json:
        emit_json({**result.to_json(), "output": args.output})
    elif args.output == "-":  # the certificate went to standard output: the summary goes to stderr
        with contextlib.redirect_stdout(sys.stderr):
            _print(result, what, written)
    else:
        _print(result, what, written)
    if result.contradiction:
        print("kernelbounds: THIS HEAD CONTRADICTS THE CERTIFIED BOUND: keep the head file and report it", file=sys.stderr)
        return CONTRADICTION
    return 0 if result.solves else 1


def _write_certificate(result, output: str) -> str:
    """Write the explicit-head certificate (a one-line note), or say why there is none."""
    try:
        doc = result.to_certificate()
    except ValueError as exc:
        print(f"kernelbounds: no certificate written: {exc}", file=sys.stderr)
        return f"no certificate: {exc}"
    write_doc(doc, output)
    return f"certificate: {output} (explicit-head; `kernelbounds check {output}` verifies it)"


def _print(result, what, written) -> None:
    worst = "undefined (a denominator is <= 0)" if result.worst_error is None else shown(result.worst_error)
    if not worst.startswith(("~", "undefined")):  # exact and short: its decimal value beside it
        worst += f" (~{approx(result.worst_error, 4)})"
    unit = "classes (query, least level)" if result.failure_unit == "class" else "scored positions"
    print(f"head of feature rank {result.head_rank} on {what}")
    if result.caveat:
        print(f"  caveat: {result.caveat}")
    print(f"  {'solves' if result.solves else 'FAILS'}: worst error {worst}; {result.failures} failing {unit}")
    if result.worst_input is not None:
        print(f"  worst input: {result.worst_input}")
    if result.method == "float+exact":
        print(f"  route: float pass with error bound, {result.rechecked} positions re-checked exactly; every error <= {result.worst_error_bound:.6g}; {result.seconds:.1f} s")
    elif result.method.startswith("extreme-classes"):
        print(f"  route: extreme-class inputs (q, a, b, ..., b) per (query, least level) class, {result.rechecked} classes decided with exact integers; {result.seconds:.1f} s")
    print(f"  exact kernel rank on the {result.tokens} tokens involved: {result.kernel_rank}; negative kernel values: {result.negative_weights}")
    if result.least_denominator is not None:
        print(f"  least denominator: {approx(result.least_denominator)} ({'> 0' if result.denominator_sign == 1 else ('= 0' if result.denominator_sign == 0 else '< 0')})")
    if result.reduction is not None:
        print(f"  extreme-class reduction: {result.reduction}")
    if result.first_failure is not None:
        print(f"  first failing input: {result.first_failure}")
    if result.certified_bound is not None:
        print(f"  certified bound for this family: r >= {result.certified_bound}")
    for line in result.l1_violations:
        print(f"  {line}")
    if written:
        print(f"  {written}")
