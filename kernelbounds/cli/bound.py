"""`kernelbounds bound` and `kernelbounds witness`: what is known about r*(m, n), both sides
(the hub, kernelbounds.hub.answer), and explicit witness families (THEORY §3)."""

from __future__ import annotations

from pathlib import Path

import sys

from ..hub.answer import KERNELS, MAX_M
from ._common import UserError, certificates_option, emit_json, one_line, one_stdout, output_options, positive, size_options, variant_option, write_doc


def register(sub) -> None:
    p = sub.add_parser(
        "bound",
        help="what is known about r*(m, n): lower <= r* <= upper, with the certificate of each side",
        description="The best certified lower bound and upper bounds (any features, nonnegative features) on r*(m, n), the least feature rank of a nonnegative-kernel head solving Min-IP of length n on m-bit tokens, with the method, THEORY section and certificate of each side, and whether they meet (exact). The same answer as kb.bound, `upper`, `table` and the docs tables (kernelbounds.hub.answer).",
        epilog="exit codes: 0 success, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexample: kernelbounds bound --m 24 --n 3 --json -o lb.json --upper-output ub.json",
    )
    size_options(p, m=(1, MAX_M), n=(1, 64), m_note=" (upper bounds below 2^m up to m = 64)")
    variant_option(p, "the head class (THEORY L5; default position-independent)")
    p.add_argument("--kernel", choices=KERNELS, default="nonnegative",
                   help="the kernel class (THEORY L8): nonnegative (default, r* itself), signed (positive denominators) or signed-any-denominator (not with --variant position-dependent); the upper sides are the same for every class")
    p.add_argument("--json", action="store_true", help="print a JSON object (m, n, variant, kernel, lower, upper, upper_nonnegative, exact, lower_method, upper_method, sides, and the code fields when the lower side is a code)")
    p.add_argument("-o", "--output", help="write the certificate of the lower side here")
    p.add_argument("--upper-output", metavar="FILE", help="write the certificate of the upper side (any features) here")
    p.add_argument("--upper-nonnegative-output", metavar="FILE", help="write the certificate of the nonnegative-features upper side here")
    certificates_option(p)
    p.set_defaults(func=run_bound)

    p = sub.add_parser(
        "witness",
        help="the smallest explicit witness family certifying r >= T",
        description="Find the smallest witness family (shortest code prefix) certifying r >= T and write a lower-bound certificate that lists every input.",
        epilog="exit codes: 0 success, 1 no candidate code reaches T, 2 usage error or unwritable file, 3 resource limit, 4 internal error, 5 the theory is contradicted.\nexit 3 when the listed family is over the checker's limits (10^6 listed items, 64 MiB), before it is built.\nexample: kernelbounds witness --m 24 --n 3 --target-rank 8 -o w.json",
    )
    size_options(p, m=(2, 256), n=(3, 64))
    p.add_argument("--target-rank", type=positive("--target-rank", 2, 10**6), required=True, help="T, 2..10^6")
    variant_option(p)
    output_options(p, "the certificate with the listed family ('-' for standard output)", "a summary (as bound --json)", required=True)
    p.set_defaults(func=run_witness)


def _side_line(name: str, side: dict) -> str:
    where = f"certificate {side['certificate']}" if side["certificate"] else (f"rebuild: {side['rebuild']}" if side["rebuild"] else "no certificate needed")
    verdict = side.get("verdict")
    if verdict and not side["certificate"]:  # a rebuilt certificate: the checker's verdict on its bytes
        where += f" (checked: sha256 {verdict['sha256'][:16]}...)"
    note = f"; {side['detail']}" if side["detail"] else ""
    if side.get("least_of_family"):
        note += f"; least rank of its family (complement basis, affine readout), proved by {side['least_of_family']}"
    return one_line(f"  {name}: {side['value']} by {side['method']} (THEORY {side['theory']}); {where}{note}", 100_000)  # a user file's path escaped


def _write_side(doc_of, out: str, what: str, folder: str | None = None) -> None:
    try:
        doc = doc_of()
    except ValueError as exc:
        raise UserError(f"{what}: {exc}") from None
    write_doc(doc, out)
    if doc.get("kind") == "rank-extension" and out != "-":
        _write_base(doc, out, folder)


def _write_base(doc: dict, out: str, folder: str | None) -> None:
    """A rank extension names its base by sha256 (THEORY U7+): write the base beside `out`
    under its hinted name, so that `kernelbounds check OUT` finds it in the same folder."""
    import hashlib
    import os

    from ..hub import index as certified_index
    from ..certificate import write_atomic

    from ..hub.entrycheck import name_problem
    from ..hub.folders import read_bounded

    name, digest = doc["base"]["name"], doc["base"]["sha256"]
    if name_problem(name):
        raise UserError(f"the base of the lower side's rank extension is named {one_line(name)}, not a plain file name")
    folder = certified_index.folder(folder)
    sources = [lambda: certified_index.read_shipped(name)] + ([lambda: read_bounded(str(Path(folder) / name))] if folder else [])
    for source in sources:
        try:
            data = source()
        except (OSError, ValueError, certified_index.StaleIndex):
            continue
        if hashlib.sha256(data).hexdigest() == digest:
            try:
                write_atomic(os.path.join(os.path.dirname(out) or ".", name), data.decode("ascii"))
            except OSError as exc:
                raise UserError(f"cannot write the base {name} beside {out}: {exc.strerror or exc}") from None
            return
    raise UserError(f"the base {name} of the lower side's rank extension is neither shipped nor in the certificates folder with its sha256")


def run_bound(args) -> int:
    from .. import api

    one_stdout(args)
    if "-" in (args.upper_output, args.upper_nonnegative_output):
        raise UserError("write the upper certificates to files (only -o may be '-')")
    try:
        b = api.bound(args.m, args.n, args.variant, certificates=args.certificates, kernel=args.kernel)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.output:
        _write_side(b.to_certificate, args.output, "the lower side", args.certificates)
    if args.upper_output:
        _write_side(b.upper_certificate, args.upper_output, "the upper side")
    if args.upper_nonnegative_output:
        _write_side(lambda: b.upper_certificate(nonnegative=True), args.upper_nonnegative_output, "the nonnegative upper side")
    if args.json:
        emit_json(b.to_json())
        return 0
    if args.output == "-":
        return 0
    print("\n".join(text_lines(b)))
    for flag, out in (("-o", args.output), ("--upper-output", args.upper_output), ("--upper-nonnegative-output", args.upper_nonnegative_output)):
        if out:
            print(f"  certificate ({flag}): {one_line(out)}")
    return 0


def text_lines(b) -> list[str]:
    """The text answer: the bounds, one line per side (the nonnegative upper side too whenever
    another value, method or file decides it, e.g. a user certificate), the code's facts."""
    lines: list[str] = []
    exact = "  (exact)" if b.exact else ""
    kernel = "" if b.kernel == "nonnegative" else f", {b.kernel} kernel"
    lines.append(f"m = {b.m}, n = {b.n} ({b.variant}{kernel}): {b.lower} <= r* <= {b.upper}{exact}")
    lines.append(_side_line("lower", b.sides["lower"]))
    lines.append(_side_line("upper", b.sides["upper"]))
    up, nonneg = b.sides["upper"], b.sides["upper_nonnegative"]
    if b.upper_nonnegative != b.upper or (nonneg["method"], nonneg["certificate"]) != (up["method"], up["certificate"]):  # a side decided by another file is named
        lines.append(_side_line("upper, nonnegative features", b.sides["upper_nonnegative"]))
    if b.code is not None:
        gaps = "" if b.gaps is None else f", gaps {b.gaps}"
        orbits = "" if b.orbits is None else f", {b.orbits} orbits"
        if b.form == "direct sum":  # THEORY L9: no single weight or gap to state
            lines.append(f"  code {one_line(b.code)} (direct sum): N = {b.code_size} words{orbits}")
        else:
            lines.append(f"  code {one_line(b.code)}: N = {b.code_size} words, weight {b.code_weight}, min gap {b.min_gap}{gaps}; {b.form} form{orbits}")
        if b.johnson_bound is not None:
            lines.append(f"  Johnson bound for this weight and min gap: A(m, 2g, w) <= {b.johnson_bound}")
        lines.append(f"  least chain product min_product = {b.min_product}, Hadamard power k = {b.k}, witness family {b.witness_inputs} inputs")
    return lines


def run_witness(args) -> int:
    from .. import api
    from ..lowerbounds.certify import ListedTooLarge

    one_stdout(args)
    w = api.witness(args.m, args.n, args.target_rank, args.variant)
    if w is None:
        print(f"kernelbounds: no candidate code certifies r >= {args.target_rank} at m = {args.m}, n = {args.n}", file=sys.stderr)
        return 1
    try:
        doc = w.to_certificate()
    except ListedTooLarge as exc:  # refused before it is built (the checker would refuse the file too)
        print(f"kernelbounds: {exc}", file=sys.stderr)
        return 3
    write_doc(doc, args.output)
    if getattr(args, "json", False):
        if args.output != "-":
            emit_json(w.to_json() | {"target_rank": args.target_rank, "output": args.output})
        return 0
    if args.output == "-":
        return 0
    print(f"r >= {w.lower} (target {args.target_rank}) from {w.code}: N = {w.code_size}, {w.witness_inputs} explicit witness inputs -> {one_line(args.output)}")
    return 0
