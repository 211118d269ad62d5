"""Constructions (THEORY U1, U2): rank one for n <= 2 (U1: phi = psi = 1, v(z) = z) and
2^m nonnegative features for every n (U2: a(x, z) = c^<x,z>), in closed form; committed
for m <= 16 (and m = 64 at n = 5, 6) with softmax's, and stated at every cell without a
stored verdict (kind ``construction``)."""

from __future__ import annotations

from functools import partial

from .protocol import Entry, Statement, no_description, no_row, plain_label

NAME, KIND, SIDE = "constructions", "construction", "upper"
THEORY, METHOD = "U1", "U1 rank one"
STORED, COMPUTED = "", True
label, describe, row = plain_label(METHOD, THEORY), no_description, no_row


def certificate(name: str, m: int, n: int) -> dict:
    from ..upperbounds import constructions

    return constructions.certificate(constructions.CONSTRUCTIONS[name](m, n))


def statements(m: int, n: int, variant: str, kernel: str, lookup) -> list[Statement]:
    """U1 for n <= 2; U2 everywhere, after every other upper side."""
    u2 = Statement(2**m, "U2 tensor", "U2", m, f"a(x, z) = c^<x,z> with c = 1/{2 * n - 1}: 2^m nonnegative features", f"kernelbounds construct tensor --m {m} --n {n} -o FILE",
                   True, build=partial(certificate, "tensor", m, n), fallback=True)
    if n > 2:
        return [u2]
    u1 = Statement(1, METHOD, THEORY, m, "phi = psi = 1, v(z) = z, L_q(y) = 2<q,y> - |q|: error 0 on every input of length <= 2", f"kernelbounds construct rank1 --m {m} --n {n} -o FILE",
                   True, build=partial(certificate, "rank1", m, n))
    return [u1, u2]


def _file(name: str, m: int, n: int) -> Entry:
    return Entry(f"construction-{name}-m{m:02d}-n{n}.json", lambda: certificate(name, m, n), cell=(m, n, "position-independent", "nonnegative") if name != "softmax" else None)


def entries() -> list[Entry]:
    out = [_file("rank1", m, 2) for m in range(1, 17)]
    out += [_file(name, m, n) for name in ("tensor", "softmax") for n in (3, 4) for m in range(1, 17)]
    return out + [_file("tensor", 64, n) for n in (5, 6)]  # n = 6: 131M classes, ~25 s of CPU (the checker's work estimate: 39 s)


def covers(m: int, n: int, variant: str, kernel: str) -> bool:
    """Every cell: U2 for every n, U1 for n <= 2."""
    return True


def build(m: int, n: int, variant: str, kernel: str) -> dict:
    """U1's certificate for n <= 2, else U2's."""
    return certificate("rank1" if n <= 2 else "tensor", m, n)
