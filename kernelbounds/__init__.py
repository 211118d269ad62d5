"""kernelbounds: exact, certified expressivity bounds for nonnegative kernel attention.

The mathematics is in docs/theory.md (the project's copy of THEORY.md).  Generator
modules build objects and certificates; :mod:`kernelbounds.checker` is the small,
independent trusted base that re-derives every claim.

The public API (docs/api.md) is re-exported here from :mod:`kernelbounds.api`, loaded
on first use so that ``python -m kernelbounds.checker`` imports nothing else:

>>> import kernelbounds as kb
>>> kb.bound(24, 3).lower
23
"""

__version__ = "0.1.0"

from .publicnames import NAMES as _API  # the public API, kept once (api.__all__ is it too)

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'kernelbounds' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_API))
