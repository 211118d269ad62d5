"""`kernelbounds bound` and `kernelbounds witness`: what is known about r*(m, n), both sides
(the hub, kernelbounds.hub.answer), and explicit witness families (THEORY §3)."""

from __future__ import annotations

import sys

from ..certificate import write_atomic, written_through
from .. import sources
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
    p.add_argument("--base-out", metavar="FILE", help="write the base the lower side's certificate names by sha256 (a rank extension, THEORY U7+) here, its exact bytes; never written unless asked")
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


def side_line(name: str, side: dict, variant: str = "position-independent") -> str:
    from ..reports.glossary import big, file_note, labelled, variant_note

    where = f"certificate {side['certificate']}" if side["certificate"] else (f"rebuild: {side['rebuild']}" if side["rebuild"] else "no certificate needed")
    verdict = side.get("verdict")
    if verdict and not side["certificate"]:  # a rebuilt certificate: the checker's verdict on its bytes
        where += f" (checked: sha256 {verdict['sha256'][:16]}...)"
    notes = [side["detail"], variant_note(variant, side.get("certificate_variant"), "lower" if name == "lower" else "upper")]
    notes.append(file_note("upper_nonnegative" if name.endswith("nonnegative features") else name, side["certificate"]))
    if side.get("least_of_family"):
        notes.append(f"least rank of its family (complement basis, affine readout), proved by {side['least_of_family']}")
    note = "".join(f"; {text}" for text in notes if text)
    return one_line(f"  {name}: {big(side['value'])} by {side['method']} ({labelled(side['theory'])}); {where}{note}", 100_000)  # a user file's path escaped


OUTPUTS = (("-o", "output", "the lower side"), ("--upper-output", "upper_output", "the upper side"),
           ("--upper-nonnegative-output", "upper_nonnegative_output", "the nonnegative upper side"), ("--base-out", "base_out", "the base"))


def _shared_node(path: str) -> bool:
    """True when path (through any symlink) is an existing node that is not a regular file
    (a device, a FIFO): it is written in place, so two options may name it."""
    import os
    import stat

    if not written_through(path):
        return False
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # a dangling symlink: the file it names is created
        return False


def _one_file(path: str, other: str) -> bool:
    """True when two output names are one file: the same resolved path (symlinks
    followed, also to a file not yet there), or the same existing file (os.path.samefile)."""
    import os

    if os.path.realpath(path) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _documents(b, args) -> list[tuple[str, str, str | bytes]]:
    """(option, file, content) of every file asked for, all built (and the base found)
    before anything is written: a side without a certificate, or --base-out when the lower
    side names no base, is a UserError and no file is written."""

    from ..certificate import canonical_json

    builders = {
        "output": b.to_certificate,
        "upper_output": b.upper_certificate,
        "upper_nonnegative_output": lambda: b.upper_certificate(nonnegative=True),
    }
    out, seen = [], []
    for flag, attr, what in OUTPUTS:
        path = getattr(args, attr)
        if not path:
            continue
        if path != "-" and not _shared_node(path):  # a device or FIFO may take two outputs; a file only one
            if any(_one_file(path, other) for other in seen):
                raise UserError(f"{flag} {one_line(path)} names a file another option writes too: give each its own file")
            seen.append(path)
        try:
            if attr == "base_out":
                found = b.lower_base()
                if found is None:
                    raise UserError(f"--base-out writes the base a rank extension names by sha256; the lower side ({b.lower_method}) names no base")
                content: str | bytes = found[1]
            else:
                content = canonical_json(builders[attr]())
        except ValueError as exc:
            raise UserError(f"{what}: {exc}") from None
        out.append((flag, path, content))
    return out


def _write(files: list[tuple[str, str, str | bytes]]) -> list[dict]:
    """Write each file (atomically; '-' is standard output); per file written its option,
    path and whether it replaced an existing regular file."""
    import os
    import stat

    written = []
    for flag, path, content in files:
        if path == "-":
            sys.stdout.write(content if isinstance(content, str) else content.decode("ascii", "replace"))
            continue
        try:
            replaced = stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            replaced = False
        try:
            write_atomic(path, content)
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        written.append({"option": flag, "file": path, "replaced": replaced})
    return written


def run_bound(args) -> int:
    from .. import api

    one_stdout(args)
    if "-" in (args.upper_output, args.upper_nonnegative_output, args.base_out):
        raise UserError("write the upper certificates and the base to files (only -o may be '-')")
    try:
        b = api.bound(args.m, args.n, args.variant, certificates=args.certificates, kernel=args.kernel)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    written = _write(_documents(b, args))
    if args.json:
        emit_json(b.to_json() | {"written": written})
        return 0
    if args.output == "-":
        return 0
    print("\n".join(text_lines(b)))
    for w in written:
        note = " (replaced the existing file)" if w["replaced"] else ""
        print(f"  {'base' if w['option'] == '--base-out' else 'certificate'} ({w['option']}): {one_line(w['file'])}{note}")
    if args.output and not args.base_out and b.lower_method == sources.by_kind("rank-extension").METHOD:
        print("  the lower certificate names its base by sha256: `kernelbounds check` finds a shipped base itself; --base-out FILE writes the base")
    return 0


def text_lines(b) -> list[str]:
    """The text answer: the bounds (big numbers also as 2^x.y), one line per side with a
    gloss of its THEORY label (the nonnegative upper side too whenever another value, method
    or file decides it, e.g. a user certificate), the ceiling of L3/L4, the code's facts."""
    from ..reports.glossary import big, gaps_text, powers

    lines: list[str] = []
    exact = "  (exact)" if b.exact else ""
    kernel = "" if b.kernel == "nonnegative" else f", {b.kernel} kernel"
    lines.append(f"m = {b.m}, n = {b.n} ({b.variant}{kernel}): {big(b.lower)} <= r* <= {big(b.upper)}{exact}")
    lines.append(side_line("lower", b.sides["lower"], b.variant))
    lines.append(side_line("upper", b.sides["upper"], b.variant))
    up, nonneg = b.sides["upper"], b.sides["upper_nonnegative"]
    if b.upper_nonnegative != b.upper or (nonneg["method"], nonneg["certificate"]) != (up["method"], up["certificate"]):  # a side decided by another file is named
        lines.append(side_line("upper, nonnegative features", b.sides["upper_nonnegative"], b.variant))
    elif up["nonnegative_features"]:
        lines.append("  (that head's features are nonnegative: it proves the nonnegative-features upper side too)")
    if b.ceiling is not None:
        lines.append(f"  ceiling of L3/L4: no code or direct-sum certificate can prove more than r >= {big(b.ceiling)} here (THEORY \"The ceiling of L3/L4 (sharp form)\")")
    if b.code is not None:
        code = one_line(powers(b.code.split(" + ")) if b.form == "direct sum" else b.code)
        gaps = "" if b.gaps is None else f" ({gaps_text(b.gaps)})"
        orbits = "" if b.orbits is None else f", {b.orbits} orbits"
        if b.form == "direct sum":  # THEORY L9: no single weight or gap to state
            lines.append(f"  code {code} (direct sum): N = {big(b.code_size)} words{orbits}")
        else:
            lines.append(f"  code {code}: N = {big(b.code_size)} words, weight {b.code_weight}, min gap {b.min_gap}{gaps}; {b.form} form{orbits}")
        if b.johnson_bound is not None:
            lines.append(f"  Johnson bound for this weight and min gap: A(m, 2g, w) <= {big(b.johnson_bound)}")
        lines.append(f"  least chain product min_product = {big(b.min_product)}, Hadamard power k = {b.k}, witness family {big(b.witness_inputs)} inputs")
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
