"""The checker's orbit closure as it was before the index closure (rules/orbits.py, O2):
a breadth-first search over the code words themselves, each frontier word permuted by
16-bit table lookups and tested against a dict of the words reached.  Kept outside the
package as the oracle of tests/checker/test_orbit_closure.py and the anchor of the bench
row `orbit_closure_m64`; `orbits(words, perms, m, reps)` is what the old
check_orbit_claims computed: per representative, its orbit's size, or the index of the
earlier orbit it lies in, and the words no orbit reaches."""

from __future__ import annotations


def chunk_bits(m: int) -> int:
    return 16 if m <= 128 else 8


class Permutation:
    """A coordinate permutation (bit i goes to bit images[i]) applied by table lookups."""

    def __init__(self, images: list[int], m: int):
        self.bits = chunk_bits(m)
        mask = (1 << self.bits) - 1
        self.mask = mask
        self.tables = []
        for start in range(0, m, self.bits):
            width = min(self.bits, m - start)
            table = [0] * (1 << width)
            for x in range(1, 1 << width):
                low = x & -x
                table[x] = table[x ^ low] | (1 << images[start + low.bit_length() - 1])
            self.tables.append(table)

    def __call__(self, w: int) -> int:
        out, bits, mask = 0, self.bits, self.mask
        for table in self.tables:
            out |= table[w & mask]
            w >>= bits
        return out

    def apply_all(self, words: list[int]) -> list[int]:
        """The images of many words (unrolled for the four tables of m <= 64)."""
        if len(self.tables) == 4 and self.bits == 16:
            t0, t1, t2, t3 = self.tables
            return [t0[w & 0xFFFF] | t1[(w >> 16) & 0xFFFF] | t2[(w >> 32) & 0xFFFF] | t3[w >> 48] for w in words]
        return [self(w) for w in words]


def closure(start: int, perms: list[Permutation], owner: dict[int, int], label: int) -> int:
    """O2: the orbit of `start` by a depth-first search; marks its words in `owner`."""
    owner[start] = label
    frontier, size = [start], 1
    while frontier:
        batch, frontier = frontier, []
        for perm in perms:
            for y in perm.apply_all(batch):
                if y not in owner:
                    owner[y] = label
                    frontier.append(y)
                    size += 1
    return size


def orbits(words: list[int], images: list[list[int]], m: int, reps: list[int]) -> tuple[list[int | tuple[str, int]], list[int]]:
    """Per representative (in order): its orbit's size, or ("inside", t) when it lies in
    the orbit of representative t (the old check stopped there); and the indices of the
    words that no listed orbit reaches (in the words' order)."""
    perms = [Permutation(p, m) for p in images]
    owner: dict[int, int] = {}
    out: list[int | tuple[str, int]] = []
    for t, rep in enumerate(reps):
        if rep in owner:
            out.append(("inside", owner[rep]))
            continue
        out.append(closure(rep, perms, owner, t))
    return out, [j for j, w in enumerate(words) if w not in owner]
