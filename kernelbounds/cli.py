"""Command-line front end: argument parsing and output only, no mathematics here."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import __version__


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class UserError(Exception):
    """A mistake in the user's request: one clear line, exit code 2."""


def _positive(name: str, lo: int = 1, hi: int = 4096):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be between {lo} and {hi}, got {value}")
        return value

    return parse


def _write(doc: dict, out: str | None) -> None:
    from .certificate import canonical_json, write_atomic

    text = canonical_json(doc)
    if out is None or out == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(out, text)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None


def cmd_construct(args) -> int:
    from .constructions import CONSTRUCTIONS, ConstructionFails, certificate

    try:
        doc = certificate(CONSTRUCTIONS[args.name](args.m, args.n))
    except ConstructionFails as exc:
        print(f"kernelbounds: {exc}", file=sys.stderr)
        return 1
    _write(doc, args.output)
    if args.output not in (None, "-"):
        claims = doc["claims"]
        print(f"wrote {args.output}: {args.name} at m={args.m}, n={args.n}, worst error {claims['worst_error']}", file=sys.stderr)
    return 0


def _span(name: str, lo: int, hi: int):
    """Parse "A..B" or "A" into a range within [lo, hi]."""

    def parse(text: str) -> range:
        parts = text.split("..")
        try:
            a, b = (int(parts[0]), int(parts[-1])) if len(parts) <= 2 else (None, None)
        except ValueError:
            a = b = None
        if a is None or not lo <= a <= b <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be A..B with {lo} <= A <= B <= {hi}, got {text!r}")
        return range(a, b + 1)

    return parse


def cmd_bound(args) -> int:
    from .lowerbound import any_certificate, best
    from .report import bound_summary

    lb = best(args.m, args.n, args.variant)
    summary = bound_summary(lb)
    if args.output:
        _write(any_certificate(lb), args.output)
    if args.json:
        import json

        print(json.dumps(summary, sort_keys=True))
    else:
        s = summary
        print(f"m = {s['m']}, n = {s['n']} ({s['variant']}): {s['lower']} <= r* <= {s['upper']} (= 2^{s['m']})")
        gaps = "" if s["gaps"] is None else f", gaps {s['gaps']}"
        print(f"  code {s['code']}: N = {s['code_size']} words, weight {s['code_weight']}, min gap {s['min_gap']}{gaps}; {s['form']} form")
        if s["johnson_bound"] is not None:
            print(f"  Johnson bound for this weight and min gap: A(m, 2g, w) <= {s['johnson_bound']}")
        print(f"  least chain product R = {s['R']}, Hadamard power k = {s['k']}, witness family {s['witness_inputs']} inputs")
        if args.output:
            print(f"  certificate: {args.output}")
    return 0


def cmd_witness(args) -> int:
    from .lowerbound import certificate, smallest_witness, witness_count

    lb = smallest_witness(args.m, args.n, args.target_rank, args.variant)
    if lb is None:
        print(f"kernelbounds: no candidate code certifies r >= {args.target_rank} at m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    _write(certificate(lb, listed=True), args.output)
    print(f"r >= {lb.bound} (target {args.target_rank}) from {lb.code.name}: N = {lb.code.size}, {witness_count(lb)} explicit witness inputs -> {args.output}")
    return 0


def cmd_table(args) -> int:
    from . import report

    rows = report.table(args.m, args.n, args.variant, upper_max_m=args.upper_max_m)
    print(report.markdown(rows) if args.format == "markdown" else report.csv(rows), end="")
    if args.plot:
        try:
            report.plot(rows, args.plot)
        except OSError as exc:
            raise UserError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
    return 0


def _rationals(text: str) -> list:
    from fractions import Fraction

    try:
        return [Fraction(x) for x in text.split(",")]
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected comma-separated rationals like 1,1/2,1/4, got {text!r}") from None


def cmd_rank(args) -> int:
    import time

    from . import rank

    if args.head:
        return _rank_of_head(args)
    if args.kernel is None or args.m is None:
        raise UserError("give --kernel and --m, or --head FILE")
    try:
        h = rank.named_kernel(args.kernel, args.m, n=args.n, c=args.c, h=args.h)
        formula = rank.formula_rank(h, args.m)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    print(f"kernel {args.kernel} on m = {args.m} bits: h = ({', '.join(str(x) for x in h[:6])}{', ...' if len(h) > 6 else ''})")
    print(f"  level-expansion formula: rank = {formula}  (sum of C(m, j) over j with Delta^j h(0) != 0)")
    if args.m <= args.max_matrix_m:
        t0 = time.perf_counter()
        rows = rank.kernel_rows(h, args.m)
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        exact = rank.flint_rank(rows)
        print(f"  FLINT exact rank of the {2**args.m} x {2**args.m} matrix: {exact}  (build {built:.2f} s, rank {time.perf_counter() - t0:.2f} s)")
        if exact != formula:
            print("kernelbounds: the formula and FLINT disagree: this contradicts THEORY §2", file=sys.stderr)
            return 4
    else:
        print(f"  full matrix skipped (m > {args.max_matrix_m}); the formula is exact by the level expansion")
    if args.output:
        if args.m > 12:
            raise UserError("rank certificates are written for m <= 12 (the checker builds the minor)")
        doc = rank.certificate(h, args.m, args.kernel)
        _write(doc, args.output)
        rows = doc["lower"]["rows"]
        size = 2**args.m if rows == "all" else len(rows)
        print(f"  certificate: {args.output} (lower side: a {size} x {size} minor nonsingular modulo the prime {doc['lower']['prime']}; upper side: the level expansion)")
    print(formula)
    return 0


def cmd_upper(args) -> int:
    from . import lowerbound, upperbound

    c = upperbound.search(args.m, args.n)
    if c is None:
        print(f"kernelbounds: no level kernel found for m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    lower = lowerbound.best(args.m, args.n).bound if args.n >= 3 and args.m >= 2 else 1
    print(f"m = {args.m}, n = {args.n}: {lower} <= r* <= {c.rank}  (2^m = {2**args.m})")
    print(f"  level kernel: differences g_j != 0 for j in {sorted(c.g)}, rank = sum C(m, j) = {c.rank}, eps = {c.eps}")
    print(f"  worst error {upperbound.worst_error(c.h, c.m, c.n, c.eps)} (exact, every level class)")
    sign = "nonnegative" if c.nonnegative_features else "signed (nonnegative features of this rank: open; U2 certifies 2^m)"
    print(f"  features: {sign}")
    if args.output:
        _write(upperbound.certificate(c), args.output)
        print(f"  certificate: {args.output}")
    return 0


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def cmd_evaluate(args) -> int:
    import json
    from itertools import product

    from . import evaluate as ev
    from .bits import to_str
    from .heads import HeadError, load

    try:
        head = load(_read(args.head))
    except HeadError as exc:
        raise UserError(f"{args.head}: {exc}") from None
    cert = None
    if args.family:
        try:
            family, scored, cert = ev.family_from_document(json.loads(_read(args.family)))
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{args.family}: not a family file ({exc})") from None
        what = f"the {len(family)}-input family {args.family}"
    else:
        if args.m is None or args.n is None:
            raise UserError("give --family FILE or both --m and --n")
        if 2 ** (args.m * args.n) > 2**20:
            raise UserError(f"2^(m n) = 2^{args.m * args.n} inputs is over the limit 2^20")
        family, scored = list(product(range(2**args.m), repeat=args.n)), None
        what = f"all {len(family)} inputs of length {args.n} over {{0,1}}^{args.m}, every position"
    if any(x >> head.m for inp in family for x in inp):
        raise UserError(f"the family's tokens do not fit the head's m = {head.m}")
    try:
        result = ev.evaluate(head, family, scored, causal=bool(cert and cert["variant"] == "causal"))
    except HeadError as exc:
        raise UserError(str(exc)) from None
    worst = "undefined (a denominator is <= 0)" if result.worst_error is None else f"{result.worst_error} (~{float(result.worst_error):.4f})"
    print(f"head of feature rank {head.rank} on {what}")
    print(f"  worst error {worst}; {result.failures} failing scored positions")
    print(f"  exact kernel rank on the {result.tokens} tokens involved: {result.kernel_rank}; negative kernel values: {result.negative_weights}")
    if result.first_failure:
        inp, i, t, y = result.first_failure
        shown = "undefined" if y is None else f"{y} (~{float(y):.4f})"
        print(f"  first failing input (position {i + 1}, target {t}, output {shown}): {' '.join(to_str(x, head.m) for x in inp)}")
    if cert is not None:
        bound = cert["claims"]["bound"]
        print(f"  certified bound for this family: r >= {bound}")
        if result.kernel_rank < bound:
            if result.failures == 0 and result.negative_weights == 0:
                print("kernelbounds: THIS HEAD CONTRADICTS THE CERTIFIED BOUND: keep the head file and report it", file=sys.stderr)
                return 4
            for line in ev.l1_violations(head, cert):
                print(f"  {line}")
    return 0 if result.failures == 0 else 1


def cmd_transcript(args) -> int:
    import math

    from . import transcript

    if (args.s + 1) ** args.q > 10**6:
        raise UserError(f"(s+1)^q = {(args.s + 1) ** args.q} inputs is over the limit 10^6")
    tb = transcript.verify(args.q, args.s)
    real = args.q * math.log2(args.s + 1)  # a report only; the decision is the integer below
    print(f"q = {args.q}, s = {args.s}: m = {tb.m}, n = {2 * args.q}; {tb.vectors} = (s+1)^q distinct answer vectors with fixed query tokens")
    print(f"  transcript >= q log2(s+1) = {real:.4f} bits; over a binary alphabet >= {tb.bits} bits (2^{tb.bits} >= {tb.vectors})")
    if args.output:
        _write(transcript.certificate(args.q, args.s), args.output)
        print(f"  certificate: {args.output}")
    return 0


def _rank_of_head(args) -> int:
    from . import rank
    from .heads import HeadError, load

    try:
        head = load(_read(args.head))
    except HeadError as exc:
        raise UserError(f"{args.head}: {exc}") from None
    if len(head.phi_q) > 4096:
        raise UserError("heads with more than 4096 tokens are over the limit")
    tokens, rows = rank.head_rows(head)
    exact = rank.flint_rank(rows)
    print(f"head {args.head}: feature dimension {head.rank}, kernel over its {len(tokens)} tokens has exact rank {exact} (FLINT)")
    if args.output:
        _write(rank.head_certificate(head), args.output)
        print(f"  certificate: {args.output}")
    print(exact)
    return 0


def _limits(items: list[str]):
    from .checker import Limits

    try:
        return Limits().with_overrides(**{k: int(v) for k, v in (item.split("=", 1) for item in items)})
    except ValueError as exc:
        raise UserError(f"bad --limit (NAME=INTEGER): {exc}") from None


def cmd_check(args) -> int:
    from .checker import check_file, worst_code

    limits = _limits(args.limit)
    verdicts = []
    for path in args.files:
        verdict = check_file(path, limits)
        verdicts.append(verdict)
        print(verdict.summary and not args.verbose and verdict.ok and f"VALID {path}: {verdict.summary}" or verdict.render())
    return worst_code(verdicts)


def cmd_certificates(args) -> int:
    from .catalog import entries
    from .certificate import canonical_json, write_atomic
    from .checker import check_file

    target = Path(args.dir)
    if args.write:
        target.mkdir(parents=True, exist_ok=True)
        for e in entries():
            write_atomic(target / e.filename, canonical_json(e.build()))
        print(f"wrote {len(entries())} certificates to {target}")
        return 0
    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries():
            fresh = Path(tmp) / e.filename
            doc = e.build()
            write_atomic(fresh, canonical_json(doc))
            verdict = check_file(str(fresh))
            committed = target / e.filename
            same = committed.is_file() and committed.read_bytes() == fresh.read_bytes()
            failures += (not verdict.ok) + (not same)
            rows.append((e.filename, verdict, same, doc))
            print(f"  {e.filename}: {'valid' if verdict.ok else verdict.render()}{'' if same else '  (DIFFERS from committed)'}", file=sys.stderr)
    _print_table(rows)
    extra = sorted({p.name for p in target.glob("*.json")} - {r[0] for r in rows}) if target.is_dir() else []
    for name in extra:
        print(f"not generated by this version (stale?): {target / name}")
    print(f"{len(rows)} certificates: {len(rows) - failures} valid and byte-identical, {failures} problems")
    return 0 if failures == 0 and not extra else 1


def _print_table(rows) -> None:
    print("| certificate | kind | m | n | proves | check (s) | byte-identical |")
    print("|---|---|---:|---:|---|---:|---|")
    for name, verdict, same, doc in rows:
        proves = verdict.summary if verdict.ok else f"REJECTED at {verdict.pointer or '/'}: {verdict.reason}"
        print(f"| {name} | {verdict.kind} | {doc.get('m', '')} | {doc.get('n', '')} | {proves} | {verdict.seconds:.2f} | {'yes' if same else 'NO'} |")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="kernelbounds", description="Certified expressivity bounds for nonnegative kernel attention on Min-IP.")
    parser.add_argument("--version", action="version", version=f"kernelbounds {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("construct", help="write a construction certificate (U1 rank1, U2 tensor, U3 softmax)")
    p.add_argument("name", choices=["rank1", "tensor", "softmax"])
    p.add_argument("--m", type=_positive("--m", 1, 64), required=True)
    p.add_argument("--n", type=_positive("--n", 1, 64), required=True)
    p.add_argument("-o", "--output", help="certificate file (default: standard output)")
    p.set_defaults(func=cmd_construct)

    variants = ["position-independent", "position-dependent", "causal"]
    p = sub.add_parser("bound", help="the best certified lower bound on the feature rank for m and n")
    p.add_argument("--m", type=_positive("--m", 2, 256), required=True)
    p.add_argument("--n", type=_positive("--n", 3, 64), required=True)
    p.add_argument("--variant", choices=variants, default="position-independent")
    p.add_argument("--json", action="store_true", help="print a JSON object (m, n, lower, upper, code, R, k, witness_inputs, ...)")
    p.add_argument("-o", "--output", help="write the lower-bound certificate here")
    p.set_defaults(func=cmd_bound)

    p = sub.add_parser("witness", help="the smallest explicit witness family certifying r >= T")
    p.add_argument("--m", type=_positive("--m", 2, 256), required=True)
    p.add_argument("--n", type=_positive("--n", 3, 64), required=True)
    p.add_argument("--target-rank", type=_positive("--target-rank", 2, 10**6), required=True)
    p.add_argument("--variant", choices=variants, default="position-independent")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(func=cmd_witness)

    p = sub.add_parser("table", help="lower <= r* <= upper for ranges of m and n, as markdown or CSV, with a plot")
    p.add_argument("--m", type=_span("--m", 2, 256), default=range(4, 65))
    p.add_argument("--n", type=_span("--n", 3, 64), default=range(3, 9))
    p.add_argument("--variant", choices=variants, default="position-independent")
    p.add_argument("--format", choices=["markdown", "csv"], default="markdown")
    p.add_argument("--plot", metavar="PNG", help="also plot log2(bound) against m")
    p.add_argument("--upper-max-m", type=_positive("--upper-max-m", 0, 32), default=0, help="search level-kernel upper bounds up to this m (default 0: 2^m only)")
    p.set_defaults(func=cmd_table)

    p = sub.add_parser("rank", help="exact rank of a kernel matrix over all m-bit tokens")
    p.add_argument("--kernel", choices=["tensor", "softmax", "level", "inner", "disjoint"])
    p.add_argument("--head", help="a head file (docs/head-format-v1.md): the rank of its kernel over its tokens")
    p.add_argument("--m", type=_positive("--m", 1, 4096))
    p.add_argument("--n", type=_positive("--n", 1, 64), default=3, help="length for tensor/softmax (c = 1/(2n-1))")
    p.add_argument("--c", type=lambda t: _rationals(t)[0], help="tensor kernel base c (default 1/(2n-1))")
    p.add_argument("--h", type=_rationals, help="level kernel h(0),...,h(m) as rationals")
    p.add_argument("--max-matrix-m", type=_positive("--max-matrix-m", 1, 14), default=12)
    p.add_argument("-o", "--output", help="write a rank certificate")
    p.set_defaults(func=cmd_rank)

    p = sub.add_parser("upper", help="a level-kernel construction below 2^m for a fixed length n")
    p.add_argument("--m", type=_positive("--m", 1, 32), required=True)
    p.add_argument("--n", type=_positive("--n", 2, 8), required=True)
    p.add_argument("-o", "--output")
    p.set_defaults(func=cmd_upper)

    p = sub.add_parser("evaluate", help="evaluate a head exactly on a witness family or on all inputs")
    p.add_argument("--head", required=True, help="head file (docs/head-format-v1.md)")
    p.add_argument("--family", help="a lower-bound certificate or {\"inputs\": [...]} file")
    p.add_argument("--m", type=_positive("--m", 1, 20))
    p.add_argument("--n", type=_positive("--n", 1, 20))
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("transcript", help="the transcript bound for q independent answers in {0..s}")
    p.add_argument("--q", type=_positive("--q", 1, 32), required=True)
    p.add_argument("--s", type=_positive("--s", 1, 64), required=True)
    p.add_argument("-o", "--output")
    p.set_defaults(func=cmd_transcript)

    p = sub.add_parser("check", help="check certificate files with the independent checker")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE", help="override a checker limit (see docs/cli.md)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every verification route")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("certificates", help="regenerate the committed set, check it and compare bytes")
    p.add_argument("dir", nargs="?", default="certificates")
    p.add_argument("--write", action="store_true", help="(re)write the set into DIR instead of verifying it")
    p.set_defaults(func=cmd_certificates)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UserError as exc:
        print(f"kernelbounds: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kernelbounds: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # an internal error: one line, exit 4
        print(f"kernelbounds: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if os.environ.get("KERNELBOUNDS_DEBUG"):
            raise
        return 4


if __name__ == "__main__":
    sys.exit(main())
