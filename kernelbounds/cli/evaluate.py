"""`kernelbounds evaluate`: a user's head, evaluated exactly on a family or on all inputs."""

from __future__ import annotations

import json
import sys
from itertools import product

from .. import evaluate as ev
from ..bits import to_str
from ..heads import HeadError, load
from ._common import CONTRADICTION, UserError, positive, read_text


def register(sub) -> None:
    p = sub.add_parser("evaluate", help="evaluate a head exactly on a witness family or on all inputs")
    p.add_argument("--head", required=True, help="head file (docs/head-format-v1.md)")
    p.add_argument("--family", help="a lower-bound certificate or {\"inputs\": [...]} file")
    p.add_argument("--m", type=positive("--m", 1, 20))
    p.add_argument("--n", type=positive("--n", 1, 20))
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        head = load(read_text(args.head))
    except HeadError as exc:
        raise UserError(f"{args.head}: {exc}") from None
    cert = None
    if args.family:
        try:
            family, scored, cert = ev.family_from_document(json.loads(read_text(args.family)))
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
                return CONTRADICTION
            for line in ev.l1_violations(head, cert):
                print(f"  {line}")
    return 0 if result.failures == 0 else 1
