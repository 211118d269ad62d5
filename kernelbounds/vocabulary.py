"""The project's vocabulary, defined once outside the checker (the checker keeps its own
copies by design: it imports nothing of the generator).

* ``VARIANTS``: the head classes of THEORY §1, in the order every output lists them
  (COMPUTED's cells, tables, the CLI's choices).
* ``KERNELS``: the kernel classes of THEORY L8, nonnegative first, each one wider than the
  one before (so a lower bound for a class holds for every class before it).
* ``sha256``: the hexadecimal digest every index, stored verdict and plot stamp uses.
* ``shipped``: the folder of the shipped certificates (inside the installed package: in
  the repository a link to certificates/, in a wheel package data).
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

VARIANTS = ("position-independent", "position-dependent", "causal")
KERNELS = ("nonnegative", "signed", "signed-any-denominator")


def sha256(data: str | bytes) -> str:
    """The sha256 of ``data`` (a str is encoded as ASCII), as 64 lowercase hex digits."""
    return hashlib.sha256(data.encode("ascii") if isinstance(data, str) else data).hexdigest()


def shipped():
    """The shipped certificate folder (a Traversable: a directory in the repository and in
    an installed wheel)."""
    return resources.files("kernelbounds") / "certificates"


def shipped_path() -> Path:
    """The shipped certificate folder as a path."""
    return Path(str(shipped()))
