"""`kernelbounds upper`: the best certified upper bound on r*(m, n) (the hub), and with
--search a fresh search of the U4 level families at a fixed length (THEORY §2 U4)."""

from __future__ import annotations

import sys

from ..upperbounds.levelfamily import families as lf_families
from ..upperbounds.freshsearch import Refused
from ..upperbounds import freshsearch as upper_search
from ._common import UserError, add_json, certificates_option, emit_json, one_line, one_stdout, size_options, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "upper",
        help="the best certified upper bound on r*(m, n) (any or nonnegative features); --search: search the U4 level families",
        description="Print the best certified upper bound on r*(m, n) with any features and with nonnegative features, as `bound` and kb.upper give it (kernelbounds.hub.answer), and write its certificate. With --search, search the U4 level families now (THEORY §2): supports in increasing cost sum C(m, j), one LP per support proposing, exact level classes deciding; print the least rank found per family and write the best as a level-family certificate (format v2).",
        epilog="exit codes: 0 success, 1 (--search) no level family solves (m, n), 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds upper --m 12 --n 3 --nonnegative -o u.json\nexample: kernelbounds upper --m 12 --n 3 --search --prove-minimal --json",
    )
    size_options(p, m=(1, 64), n=(1, 64), m_note=" (--search: C(m+n, n) <= 20,000 level classes)", n_note=" (--search: 2..8)")
    p.add_argument("--search", action="store_true", help="search the U4 level families now instead of answering from the certified results")
    p.add_argument("--basis", choices=["subset", "complement", "best"], default="best", help="--search: feature basis (default: the better of both)")
    p.add_argument("--readout", choices=["affine", "free", "best"], default="best", help="--search: readout F = <q,z> - 1/2 + eps, a free table f_p(l), or the better")
    p.add_argument("--nonnegative", action="store_true", help="nonnegative features only (the upper_nonnegative column; --search: families with every g_j >= 0)")
    p.add_argument("--prove-minimal", action="store_true", help="--search: add exact Motzkin multipliers refuting every maximal cheaper support")
    add_json(p, "the answer (m, n, upper, nonnegative, method, theory, certificate, from_m, from_n, ...) or, with --search, m, n, rank, basis, readout, support, value_dim, nonnegative_features, minimal_in_family, families")
    p.add_argument("-o", "--output", help="write the certificate here (the answer's, or with --search the best family's)")
    certificates_option(p)
    p.set_defaults(func=run)


def _lower(m: int, n: int, certificates: str | None = None) -> int:
    from ..hub.answer import lower

    return lower(m, n, certificates=certificates).value


def run(args) -> int:
    if args.search:
        return run_search(args)
    one_stdout(args)
    if args.basis != "best" or args.readout != "best" or args.prove_minimal:
        raise UserError("--basis, --readout and --prove-minimal choose what --search searches: give --search too")
    from .. import api

    u = api.upper(args.m, args.n, nonnegative=args.nonnegative, certificates=args.certificates)
    if args.output:
        try:
            write_doc(u.to_certificate(), args.output)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    if args.json:
        emit_json(u.to_json())
        return 0
    if args.output == "-":
        return 0
    b = api.bound(args.m, args.n, certificates=args.certificates)
    print(f"m = {args.m}, n = {args.n}: {b.lower} <= r* <= {b.upper}{'  (exact)' if b.exact else ''}  (2^m = {2**args.m})")
    from .bound import side_line

    for name, side in (("any features", b.sides["upper"]), ("nonnegative features", b.sides["upper_nonnegative"])):
        print(side_line(name, side))
    if args.output:
        print(f"certificate: {one_line(args.output)}")
    return 0


def _value_dim(found) -> int:
    return found.m if found.family.readout == "affine" else lf_families.value_dim(found.f, found.m)


def _family_line(r) -> str:
    f = r.found
    if f.support is None:
        how = "refuted exactly" if r.proved else "float LP infeasible on the full support"
        return f"  {f.family.name:32s} no construction ({how})"
    status = "least of the family (exact)" if r.proved else f"best found; {len(f.refuted_by_lp)} maximal cheaper supports infeasible by float LP"
    if f.unresolved:
        status += f"; {len(f.unresolved)} LP-feasible supports of the same cost failed the exact check"
    return f"  {f.family.name:32s} rank {f.rank:>7}  support {list(f.support)}  ({status})"


def run_prefix_search(args, search) -> int:
    """THEORY U4' at scale: the prefix search of the complement basis, affine readout."""
    found, doc = search.found, search.certificate
    if args.output:
        write_doc(doc, args.output)
    info = {"m": args.m, "n": args.n, "rank": found.rank, "basis": "complement", "readout": "affine", "signs": "nonnegative" if args.nonnegative else "any",
            "support": list(found.support), "nonnegative_features": found.nonnegative, "worst_error": doc["claims"]["worst_error"], "lower": _lower(args.m, args.n, args.certificates),
            "certificate": args.output, "search": {k: v for k, v in found.stats.items() if k != "unresolved"}}
    if args.json:
        emit_json(info)
        return 0
    print(f"m = {args.m}, n = {args.n}: prefix search (complement basis, affine readout{', g >= 0' if args.nonnegative else ''}): rank {found.rank}, support {list(found.support)}")
    print(f"  worst error {info['worst_error']} (exact, every extreme class); search {info['search']}")
    if args.output:
        print(f"certificate: {one_line(args.output)}")
    return 0


def run_search(args) -> int:
    one_stdout(args)
    m, n = args.m, args.n
    try:
        found = upper_search.run(m, n, args.basis, args.readout, args.nonnegative, args.prove_minimal, progress=not args.json)
    except Refused as exc:
        raise UserError(str(exc)) from None
    if found is None:
        fams = lf_families.families(args.basis, args.readout, args.nonnegative)
        print(f"kernelbounds: no level family {[f.name for f in fams]} solves m = {m}, n = {n}; U2 gives 2^m = {2**m}", file=sys.stderr)
        return 1
    if found.method == "prefix":
        return run_prefix_search(args, found)
    best, results, doc = found.best, found.results, found.certificate
    f = best.found
    info = {
        "m": m,
        "n": n,
        "rank": f.rank,
        "basis": f.family.basis,
        "readout": f.family.readout,
        "signs": "nonnegative" if f.family.nonnegative else "any",
        "support": list(f.support),
        "value_dim": _value_dim(f),
        "nonnegative_features": f.nonnegative_features,
        "minimal_in_family": best.proved,
        "worst_error": doc["claims"]["worst_error"],
        "lower": _lower(m, n, args.certificates),
        "certificate": args.output,
        "families": [{"family": r.found.family.name, "rank": r.rank, "support": None if r.found.support is None else list(r.found.support), "minimal_in_family": r.proved} for r in results],
    }
    if args.output:
        write_doc(doc, args.output)
    if args.json:
        emit_json(info)
        return 0
    print(f"m = {m}, n = {n}: {info['lower']} <= r* <= {f.rank}  (2^m = {2**m})")
    print(f"  rank {f.rank}: {f.family.basis} basis, {f.family.readout} readout, support {list(f.support)}, value dimension {info['value_dim']}")
    print(f"  features: {'nonnegative' if f.nonnegative_features else 'signed'}; worst error {info['worst_error']} (exact, every level class)")
    print("  " + ("least rank of its family: every maximal cheaper support refuted by exact Motzkin multipliers" if best.proved else "best found (cheaper supports ruled out by float LPs; --prove-minimal for exact refutations)"))
    print("families:")
    for r in results:
        print(_family_line(r))
    if args.output:
        print(f"certificate: {one_line(args.output)}")
    return 0
