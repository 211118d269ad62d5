"""kernelbounds: exact, certified expressivity bounds for nonnegative kernel attention.

The mathematics is in docs/theory.md (the project's copy of THEORY.md).  Generator
modules build objects and certificates; :mod:`kernelbounds.checker` is the small,
independent trusted base that re-derives every claim.
"""

__version__ = "0.1.0"
