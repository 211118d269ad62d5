"""Direct sums of codes (THEORY L9): the best sum of library codes per length and n
(``lowerbounds.directsum``), the lower side above m = 64."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_row, none_stated

NAME, KIND, SIDE = "direct-sums", "direct-sum", "lower"
THEORY, METHOD = "L9", "direct sum of codes"
STORED, COMPUTED = "", False
row, statements = no_row, none_stated


def label(kernel: str) -> tuple[str, str]:
    return (METHOD, THEORY) if kernel == "nonnegative" else (METHOD + " (D-ratios)", THEORY)  # L3 on the D-ratios (THEORY L8)


def describe(doc: dict) -> dict | None:
    """The code fields of a checked direct-sum file: the sum named by its components (each
    repeated by its copies), its size, k, least chain product and witness count as the
    checker accepted them, and the orbit count of every copy."""
    parts = [(c["code"]["name"], c["copies"], len(c["claims"]["orbits"])) for c in doc["components"]]
    claims = doc["claims"]
    return {"code": " + ".join(name for name, copies, _ in parts for _ in range(copies)), "code_size": claims["code_size"],
            "min_product": claims["min_product"], "k": claims["k"], "witness_inputs": claims["witness_inputs"],
            "form": "direct sum", "orbits": sum(copies * orbits for _, copies, orbits in parts)}


def entries() -> list[Entry]:
    from ..lowerbounds import directsum

    return [Entry(directsum.filename(m, n, v, k), lambda m=m, n=n, v=v, k=k: directsum.best(m, n, v, k).certificate(), cell=(m, n, v, k)) for m, n, v, k in directsum.committed_cells()]


covers, build = files_cover(entries)
