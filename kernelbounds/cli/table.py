"""`kernelbounds table`: lower <= r* <= upper over ranges of m and n."""

from __future__ import annotations

from .. import report
from ._common import VARIANTS, UserError, jobs_option, positive, span


def register(sub) -> None:
    p = sub.add_parser("table", help="lower <= r* <= upper for ranges of m and n, as markdown or CSV, with a plot")
    p.add_argument("--m", type=span("--m", 2, 256), default=range(4, 65))
    p.add_argument("--n", type=span("--n", 3, 64), default=range(3, 9))
    p.add_argument("--variant", choices=VARIANTS, default="position-independent")
    p.add_argument("--format", choices=["markdown", "csv"], default="markdown")
    p.add_argument("--plot", metavar="PNG", help="also plot log2(bound) against m")
    p.add_argument("--upper-max-m", type=positive("--upper-max-m", 0, 32), default=0, help="search level-kernel upper bounds up to this m (default 0: 2^m only)")
    jobs_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    rows = report.table(args.m, args.n, args.variant, upper_max_m=args.upper_max_m, jobs=args.jobs)
    print(report.markdown(rows) if args.format == "markdown" else report.csv(rows), end="")
    if args.plot:
        try:
            report.plot(rows, args.plot)
        except OSError as exc:
            raise UserError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
    return 0
