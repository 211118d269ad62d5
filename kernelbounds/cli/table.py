"""`kernelbounds table`: lower <= r* <= upper over ranges of m and n."""

from __future__ import annotations

from ..reports import plots, report
from ..hub.answer import KERNELS
from ._common import UserError, certificates_option, emit_json, jobs_option, positive, scheduled, scheduler_option, span, variant_option

HELP = """Print lower <= r* <= upper for every m and n in the ranges: the hub's answer
(kernelbounds.hub.answer, the same as `bound`, `upper` and the API): the best certified lower
bound, the best certified upper bounds with any and with nonnegative features, whether they
meet (exact), and the method and committed certificate of each side. Columns are documented
in docs/api.md ("One name per quantity")."""

EPILOG = """exit codes: 0 success, 2 usage error or unwritable plot, 3 resource limit, 4 internal error, 5 the theory is contradicted.
example: kernelbounds table --m 4..24 --n 3..5 --format csv --plot bounds.svg --dpi 200"""


def register(sub) -> None:
    p = sub.add_parser("table", help="lower <= r* <= upper for ranges of m and n, as markdown, CSV or JSON Lines, with a plot", description=HELP, epilog=EPILOG)
    p.add_argument("--m", type=span("--m", 1, 256), default=range(2, 65), help="A..B with 1 <= A <= B <= 256 (default 2..64)")
    p.add_argument("--n", type=span("--n", 1, 64), default=range(1, 9), help="A..B with 1 <= A <= B <= 64 (default 1..8)")
    variant_option(p)
    p.add_argument("--kernel", choices=KERNELS, default="nonnegative", help="the kernel class (THEORY L8; as `bound --kernel`; default nonnegative)")
    p.add_argument("--format", choices=["markdown", "csv", "json", "html", "text"], default="markdown",
                   help="markdown (default), csv, or json (JSON Lines, one row per line); with --grid also html and text (aligned columns)")
    p.add_argument("--json", action="store_true", help="the same as --format json (integers exact at every size)")
    p.add_argument("--grid", action="store_true", help="a grid: m down, n across, a cell 'lower-upper' (one number when exact) with the footnote letters of its methods and a key; "
                   "numbers wider than --width digits as 2^x.y (rounded outward); markdown (default: aligned text on a terminal), csv, json (one object) or html")
    p.add_argument("--width", type=positive("--width", 1, 400), default=None, help="with --grid: digits shown in full, 1..400 (default 5)")
    p.add_argument("--exact", action="store_true", help="with --grid: every number in full")
    p.add_argument("--plot", metavar="FILE", help="also plot the bounds against m; the format (png, svg, pdf) from the extension; '-' writes PNG to standard output")
    p.add_argument("--dpi", type=positive("--dpi", 30, 1200), help="plot resolution for PNG (30..1200, default 150)")
    jobs_option(p)
    scheduler_option(p)
    certificates_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    fmt = "json" if args.json else args.format
    if args.dpi is not None and not args.plot:
        raise UserError("--dpi sets the plot's resolution: give --plot FILE too")
    if args.json and args.format != "markdown":
        raise UserError("--json is --format json: give one of them")
    args.dpi = 150 if args.dpi is None else args.dpi
    if args.plot == "-" and (fmt != "markdown"):
        raise UserError("--plot - writes the PNG image to standard output: it cannot be combined with --format csv/json or --json")
    if args.plot and args.plot != "-":
        try:
            plots.plot_format(args.plot)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    if args.plot:
        try:
            plots.require_matplotlib()  # before any cell is computed
        except plots.NoMatplotlib as exc:
            raise UserError(str(exc)) from None
    if args.kernel == "signed-any-denominator" and args.variant == "position-dependent":
        raise UserError("kernel signed-any-denominator is not covered for the position-dependent variant (THEORY L8 (b)); use --kernel signed or another variant")
    if args.grid:
        return _grid(args, fmt)
    if (args.width, args.exact) != (None, False) or fmt in ("html", "text"):
        raise UserError("--width, --exact and --format html/text are for --grid")
    rows = scheduled(lambda: report.table(args.m, args.n, args.variant, jobs=args.jobs, scheduler=args.scheduler, certificates=args.certificates, kernel=args.kernel))
    if fmt == "json":
        for r in rows:
            emit_json(report.row_dict(r) | {"variant": args.variant, "kernel": args.kernel})
    elif args.plot != "-":  # with --plot -, standard output carries the image only
        print(report.markdown(rows) if fmt == "markdown" else report.csv(rows), end="")
    if args.plot:
        try:
            plots.plot(rows, args.plot, dpi=args.dpi, variant=args.variant, kernel=args.kernel)
        except OSError as exc:
            raise UserError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
        except plots.NoMatplotlib as exc:
            raise UserError(str(exc)) from None
    return 0


def _grid(args, fmt: str) -> int:
    """`table --grid`: one block for the variant and kernel class (kernelbounds.reports.grid)."""
    from ..reports import grid

    if args.plot:
        raise UserError("--plot draws the rows, not the grid: drop --grid or --plot")
    width = grid.WIDTH if args.width is None else args.width
    b = scheduled(lambda: grid.block(args.m, args.n, args.variant, args.kernel, jobs=args.jobs, certificates=args.certificates))
    if fmt == "json":
        emit_json(grid.to_json(b, width, args.exact))
    elif fmt == "csv":
        print(grid.csv([b], width, args.exact), end="")
    elif fmt == "html":
        print(grid.html(b, width, args.exact), end="")
    else:
        print(grid.markdown(b, width, args.exact) if fmt == "markdown" else grid.text(b, width, args.exact), end="")
    return 0
