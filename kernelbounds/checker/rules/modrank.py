"""The exact rank over Q of an integer matrix, by ranks modulo proved primes.

FLINT's exact ``fmpz_mat.rank`` is fast on matrices of full rank but fraction-free on
rank-deficient ones, whose entries then grow to rank x bits (a 256 x 256 matrix of
1024-bit entries and rank 37 takes 34 s), so its cost cannot be sized from the entries.
This route's cost can:

* rank_p(M) <= rank_Q(M) for every prime p (a minor nonzero mod p is nonzero), so the
  largest rank rho seen modulo the primes is a lower bound;
* every (rho+1)-minor has absolute value at most the product of the rho+1 largest row
  norms (Hadamard), 2^B; when every prime used gives rank <= rho, every (rho+1)-minor is
  divisible by each of them, hence by their product, and a product > 2^B forces the
  minor to be 0: rank_Q(M) <= rho.
Each prime is proved prime (deterministic Miller-Rabin, ``rank.is_prime``) and the
ranks modulo p are FLINT's ``nmod_mat.rank`` (the trusted base).  A matrix of full rank
min(rows, cols) needs one prime.  ``work`` bounds the cost from the rows' bit sizes.
"""

from __future__ import annotations

from collections.abc import Iterator

from .rank import is_prime

TOP = 2**62  # primes below this fit FLINT's word-size modulus


def primes() -> Iterator[int]:
    """The primes below 2^62, in decreasing order (each proved prime)."""
    p = TOP - 1
    while True:
        if is_prime(p):
            yield p
        p -= 2


def _hadamard_bits(row_bits: list[int], cols: int, size: int) -> int:
    """log2 of a bound on |det| of any size x size minor: the product of the `size`
    largest row norms, each <= 2^bits sqrt(cols)."""
    half = (max(cols, 1).bit_length() + 1) // 2
    return sum(sorted(row_bits, reverse=True)[:size]) + size * half + 1


def _rank_mod(rows: list[list[int]], cols: int, p: int) -> int:
    import flint

    return flint.nmod_mat(len(rows), cols, [x % p for row in rows for x in row], p).rank()


def exact_rank(rows: list[list[int]], max_primes: int | None = None) -> tuple[int | None, int, int]:
    """(rank over Q, primes used, rank modulo the first prime) of a nonempty integer
    matrix; the rank is None when the confirmation would need more than ``max_primes``
    primes (then only the lower bound, the third value, is known)."""
    cols = len(rows[0])
    full = min(len(rows), cols)
    row_bits = [max((abs(x).bit_length() for x in row), default=0) for row in rows]
    rho, first, product_bits, used = -1, -1, 0, 0
    for p in primes():
        rho = max(rho, _rank_mod(rows, cols, p))
        first = rho if first < 0 else first
        used += 1
        product_bits += p.bit_length() - 1  # p > 2^(bits - 1)
        need = _hadamard_bits(row_bits, cols, rho + 1)
        if rho == full or product_bits > need:
            return rho, used, first
        if max_primes is not None and used + (need - product_bits) // 61 + 1 > max_primes:
            return None, used, first
    raise AssertionError("unreachable: primes() is infinite")


def per_prime(row_bits: list[int], cols: int) -> int:
    """Units for one prime: rows x cols reductions (measured: 0.3 us + 1 us per 1000
    bits each), the nmod_mat built from the list, FLINT's elimination (size^3 / 200)."""
    full = min(len(row_bits), cols)
    return sum(cols * (3 + b // 100) for b in row_bits) + len(row_bits) * cols // 4 + full**3 // 200 + 1000
