"""`kernelbounds site DIR`: the grids, a page per cell, the plot and the cited certificates
as plain HTML that opens from the file system (kernelbounds.reports.site)."""

from __future__ import annotations

from ._common import UserError, jobs_option, span


def register(sub) -> None:
    p = sub.add_parser(
        "site",
        help="write a static site of plain HTML: the grids, a page per cell, the plot, the certificates",
        description="Write into DIR (new, empty, or a site written before) index.html with the grids of every variant and kernel class (as `table --grid`), "
                    "a page per cell (both sides: value, method, THEORY section, certificate with sha256 and how to check it or the rebuild command, the "
                    "closure in m, the ceiling of L3/L4, every variant and kernel class of the same (m, n)), plot.png (when matplotlib imports) and the cited "
                    "shipped certificates in DIR/certificates/. No server and no JavaScript: open DIR/index.html in a browser.",
        epilog="exit codes: 0 success, 2 usage error, a non-empty DIR that holds no site, or an unwritable file, 4 internal error, 5 the theory is contradicted.\n"
               "example: kernelbounds site --m 2..64 --n 3..8 bounds-site",
    )
    p.add_argument("dir", metavar="DIR", help="the folder to write")
    p.add_argument("--m", type=span("--m", 1, 256), default=range(1, 257), help="A..B with 1 <= A <= B <= 256 (default 1..256)")
    p.add_argument("--n", type=span("--n", 1, 64), default=range(1, 9), help="A..B with 1 <= A <= B <= 64 (default 1..8)")
    p.add_argument("--no-plot", action="store_true", help="do not draw plot.png")
    jobs_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..reports import site

    try:
        done = site.write(args.dir, args.m, args.n, jobs=args.jobs, plot=not args.no_plot)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write the site into {args.dir}: {exc.strerror or exc}") from None
    print(f"site: {done['cells']} cell pages, {done['certificates']} certificates{', plot.png' if done['plot'] else ''} in {args.dir} (open {args.dir}/index.html)")
    return 0
