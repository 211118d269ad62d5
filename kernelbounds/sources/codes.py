"""Codes (THEORY L4-L6; L8 for signed kernels): a code's words as keys, chains of queries
between them and the Hadamard-power rank bound L3 (``lowerbounds.assemble``).

Committed files: the best code bound at chosen cells (``lower-*.json``) and the smallest
listed witness families (``witness-*.json``), the signed restatements (THEORY L8) where
they are the only or the asked-for file.  Stored (COMPUTED, one row per cell): the code
search's best bound with the checker's verdicts on its nonnegative certificate and, where
the bound exceeds 2, the one restated for the widest signed class the variant admits.

``restate`` is the one path that states a code bound for another kernel class (THEORY L8:
the same code and chains bound the D-ratio matrix, of rank <= r + 1, so r >= L3 - 1).
"""

from __future__ import annotations

from functools import partial

from .protocol import Entry, Statement, verdict
from .rowshape import VERDICT, Problem, fields, sha, show, whole

NAME, KIND, SIDE = "codes", "lower-bound", "lower"
THEORY, METHOD = "L4", "codes"
STORED, COMPUTED = "cell", True

MAX_M = 64  # the search runs up to here (the stored grid); above, the stored m = 64 cell holds by restriction (THEORY U5)


def restate(lb, kernel: str):
    """The code bound ``lb`` stated for the kernel class (THEORY L8; ValueError for a class
    the variant does not admit): the one path from a nonnegative bound to a signed one."""
    return lb.with_kernel(kernel)


def signed_kernel(variant: str) -> str:
    """The widest signed kernel class a code certificate can state for the variant (THEORY L8 (b):
    denominators of either sign are not covered for position-dependent heads)."""
    return "signed" if variant == "position-dependent" else "signed-any-denominator"


def stated_kernels(variant: str, bound: int) -> list[str]:
    """The kernel classes a code cell's certificates are stated for: nonnegative, and when the
    bound exceeds 2 the widest signed class (THEORY L8: value bound - 1, so r >= 1 needs none)."""
    return ["nonnegative"] + ([signed_kernel(variant)] if bound > 2 else [])


def best(m: int, n: int, variant: str, kernel: str = "nonnegative"):
    """The code search's best bound at (m, n, variant), stated for the kernel class."""
    from ..lowerbounds import assemble

    return restate(assemble.best(m, n, variant), kernel)


def witness(m: int, n: int, target: int, kernel: str = "nonnegative", variant: str = "position-independent"):
    """The smallest witness family certifying r >= target for the kernel class: for a
    signed class the L3 bound must reach target + 1 (THEORY L8)."""
    from ..lowerbounds import assemble
    from ..lowerbounds.forms import check_kernel

    check_kernel(kernel, variant)
    lb = assemble.smallest_witness(m, n, target + (kernel != "nonnegative"), variant)
    return None if lb is None else restate(lb, kernel)


def ceiling(m: int, n: int, kernel: str) -> int | None:
    """The most any certificate of this method (a code, or a direct sum of codes, L9) can
    prove about r*(m, n) for the kernel class (THEORY "The ceiling of L3/L4 (sharp form)";
    a signed class's, L8, one less: its certificate proves r + 1 >= the bound); None for
    n <= 2, where the method says nothing."""
    from ..lowerbounds.ceiling import ceiling as sharp

    return sharp(m, n, signed=kernel != "nonnegative") if n >= 3 else None


def covers(m: int, n: int, variant: str, kernel: str) -> bool:
    return n >= 3 and not (kernel == "signed-any-denominator" and variant == "position-dependent")


def build(m: int, n: int, variant: str, kernel: str) -> dict:
    return best(min(m, MAX_M), n, variant, kernel).certificate()


def label(kernel: str) -> tuple[str, str]:
    return ("codes", "L4") if kernel == "nonnegative" else ("codes (D-ratios)", "L8")


def describe(doc: dict) -> dict | None:
    """The code's side of a checked code file (``assemble.summary``)."""
    from ..lowerbounds import assemble

    return assemble.summary(assemble.from_certificate(doc))


def detail(lb) -> str:
    """The hub's one-line description of a code bound (THEORY L4)."""
    from ..lowerbounds import assemble

    info = assemble.describe(lb)
    return f"code {info['code']}: N = {info['size']}, {info['form']} form, least chain product {lb.min_product}, Hadamard power k = {lb.k}"


def row(m: int, n: int, variant: str, lookup) -> dict | None:
    """The code search's best bound at (m, n, variant), or None when no code fits, with the
    checker's verdicts on its nonnegative and signed certificates."""
    from ..lowerbounds import assemble

    lb = assemble.best(m, n, variant)
    if not lb.size:
        return None
    kernels = stated_kernels(variant, lb.bound)
    label_ = f"code search at m = {m}, n = {n} ({variant})"
    certificates = {k: verdict(restate(lb, k).certificate(), f"{label_}, {k} kernel") for k in kernels}
    return {"bound": lb.bound, "detail": detail(lb), "summary": assemble.summary(lb), "certificates": certificates}


FIELDS = {"bound", "detail", "summary", "certificates"}  # a stored row's fields (besides null: no code fits)


def shape(row, where: str, m: int, n: int, variant: str, cell: dict) -> list[Problem]:
    """A stored code row: null or exactly :data:`FIELDS`, the bound in 1..2^m (THEORY U2), and
    a verdict for exactly the kernel classes the bound states (:func:`stated_kernels`)."""
    if row is None:
        return []
    out = fields(row, FIELDS, where)
    if out:
        return out
    out = whole(row["bound"], 1, 2**m, f"{where}/bound", "the code bound")
    if out:
        return out
    bound = row["bound"]
    if not isinstance(row["detail"], str) or not isinstance(row["summary"], dict):
        out.append((where, "its detail is not a string or its summary not an object"))
    certificates = row["certificates"]
    if not isinstance(certificates, dict):
        return out + [(f"{where}/certificates", "not a JSON object")]
    stated = stated_kernels(variant, bound)
    out += [(f"{where}/certificates/{k}", f"missing: the code bound {bound} at m = {m}, n = {n} ({variant}) states a {k} certificate") for k in stated if k not in certificates]
    out += [(f"{where}/certificates/{show(k)}", "not a certificate the code search states for this cell") for k in sorted(certificates, key=str) if k not in stated]
    for k in stated:
        if k in certificates:
            found = fields(certificates[k], VERDICT, f"{where}/certificates/{k}")
            out += found or sha(certificates[k], f"{where}/certificates/{k}")
    return out


def statements(m: int, n: int, variant: str, kernel: str, lookup) -> list[Statement]:
    """The stored code certificates at min(m, 64) that state the kernel class (THEORY L8: a
    signed restatement covers every narrower class, one less); the hub keeps the greatest."""
    from ..errors import StaleIndex

    source = min(m, MAX_M)
    c = lookup(NAME, source, n, variant)
    if c is None or (kernel != "nonnegative" and c["bound"] <= 2):  # r >= 1 needs no code
        return []
    found = c.get("certificates")
    if not isinstance(found, dict) or not found:
        raise StaleIndex(f"COMPUTED: the code cell at m = {source}, n = {n} ({variant}) has no checker verdict: run `kernelbounds certificates --write certificates`")
    method, theory = label(kernel)
    option = "" if kernel == "nonnegative" else f" --kernel {kernel}"
    text = c["detail"] if kernel == "nonnegative" else f"{c['detail']}; the D-ratio matrix has rank <= r + 1 (THEORY L8), so r >= {c['bound']} - 1"
    out = []
    for stated, entry in sorted(found.items()):
        if not isinstance(entry, dict) or not isinstance(entry.get("claim"), dict) or kernel not in (entry["claim"].get("kernels") or ()):
            continue
        out.append(Statement(c["bound"] - (stated != "nonnegative"), method, theory, source, text, f"kernelbounds bound --m {source} --n {n} --variant {variant}{option} -o FILE",
                             code=c["summary"], found=entry, at=(source, n, variant), where=f"code cell at m = {source}, n = {n} ({variant}, {stated} certificate)",
                             build=partial(build, source, n, variant, stated)))
    if not out:
        raise StaleIndex(f"COMPUTED: no stored code certificate at m = {source}, n = {n} ({variant}) covers the {kernel} kernel class: run `kernelbounds certificates --verify`")
    return out


def file_summary(data: bytes) -> dict:
    """The code description of one committed code file (stored in COMPUTED by name and sha256)."""
    import json

    return describe(json.loads(data))


# ----------------------------------------------------------------- the committed files


def _lower(m: int, n: int, variant: str = "position-independent") -> Entry:
    return Entry(f"lower-{variant}-m{m:02d}-n{n}.json", lambda: best(m, n, variant).certificate(), cell=(m, n, variant, "nonnegative"))


def _witness(m: int, n: int, target: int, kernel: str = "nonnegative") -> Entry:
    from ..lowerbounds import certify

    name = f"witness-m{m:02d}-n{n}-r{target}.json" if kernel == "nonnegative" else f"witness-{kernel}-m{m:02d}-n{n}-r{target}.json"
    return Entry(name, lambda: certify.certificate(witness(m, n, target, kernel), listed=True))


def _lower_kernel(m: int, n: int, kernel: str, variant: str = "position-independent") -> Entry:
    return Entry(f"lower-{kernel}-{variant}-m{m:02d}-n{n}.json", lambda: best(m, n, variant, kernel).certificate(), cell=(m, n, variant, kernel))


def _signed() -> list[Entry]:
    """THEORY L8: a signed-any-denominator file's claim covers all three kernel classes, so
    a signed file is added only where it is the only one (position-dependent) or asked for
    (m = 64 and 24, n = 3)."""
    any_den = "signed-any-denominator"
    out = [_lower_kernel(64, 3, "signed"), _lower_kernel(64, 3, any_den), _lower_kernel(64, 3, any_den, "causal")]
    out += [_lower_kernel(24, 3, "signed"), _lower_kernel(24, 3, "signed", "position-dependent"), _lower_kernel(24, 3, any_den), _lower_kernel(24, 3, any_den, "causal")]
    out += [_lower_kernel(24, n, any_den) for n in range(4, 9)]
    out += [_lower_kernel(m, 3, any_den) for m in (32, 48)] + [_lower_kernel(64, n, any_den) for n in range(4, 9)]
    out.append(_witness(24, 3, 7, "signed"))  # the Paley family of witness-m24-n3-r8.json, r >= 8 - 1
    return out


def entries() -> list[Entry]:
    out = [_lower(24, n) for n in (3, 4, 5)] + [_witness(24, 3, 8)]
    out += [_lower(24, 3, variant) for variant in ("position-dependent", "causal")]
    out += [_lower(64, n) for n in (3, 8)] + [_lower(24, n) for n in (6, 7, 8)]
    out += [_lower(m, n) for m in (32, 48) for n in range(3, 9)] + [_lower(64, n) for n in range(4, 8)]
    return out + _signed()
