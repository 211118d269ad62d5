"""Helpers shared by the tests (imported as `from helpers import ...`)."""

from fractions import Fraction

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, Verdict, check_bytes


def verdict(doc, **limits) -> Verdict:
    """The checker's verdict on a certificate dict (canonical bytes), with limit overrides."""
    return check_bytes(canonical_json(doc).encode(), limits=Limits().with_overrides(**limits))


def level_expansion_doc(m: int, n: int) -> dict:
    """A v1 `construction` certificate of kernel type level-expansion (THEORY §2, last
    paragraph): the subset-basis, affine-readout level family's least-rank head, whose kernel
    h(l) = sum_j g_j C(l, j) and readout <q, y> - 1/2 + eps are exactly that v1 kind."""
    from fractions import Fraction

    from kernelbounds.certificate import header, rational
    from kernelbounds.upperbounds import levelfamily as lf

    found = lf.least(lf.LevelFamily("subset", "affine", False), m, n)
    worst, _ = lf.exact_worst_error(found.family, found.g, lf.readout_table(found.family, found.eps, None, m), m, n)
    doc = header("construction")
    doc.update(
        construction="level-kernel", m=m, n=n, positions="all",
        head={"kernel": {"type": "level-expansion", "differences": [rational(found.g.get(j, 0)) for j in range(m + 1)]},
              "values": {"type": "identity"},
              "readout": {"type": "query-affine", "alpha": "1", "beta": "0", "gamma": rational(found.eps - Fraction(1, 2))}},
        claims={"worst_error": rational(worst), "feature_rank": found.rank, "kernel_rank": found.rank, "nonnegative_features": found.nonnegative_features},
    )
    return doc


EPS = Fraction(1, 4)  # the readout's eps in literal_worst_error


def literal_worst_error(h, m, n, eps=EPS):
    """max |y - t| over every class (p, l_2..l_n), straight from THEORY §2 (no shortcuts)."""
    from itertools import combinations_with_replacement

    worst = Fraction(0)
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            cls = (p, *levels)
            y = sum(h[l] * (l - Fraction(1, 2) + eps) for l in cls) / sum(h[l] for l in cls)
            worst = max(worst, abs(y - min(cls)))
    return worst
