"""The library's exceptions have one root, :class:`KernelboundsError` (docs/api.md, "Errors").

Every exception class the library defines derives from it and keeps its builtin category
by multiple inheritance (``class HeadError(KernelboundsError, ValueError)``), so a caller
may catch "any kernelbounds error" or, as before, ``ValueError``/``RuntimeError``.  An
argument outside what a function accepts raises :class:`InvalidArgument` (a ValueError).

The checker (kernelbounds/checker/) is the exception: the trusted base imports nothing from
the rest of the package, so its rejections keep their own root, ``checker.errors.Rejection``
(Invalid, Malformed, LimitExceeded, each naming a JSON pointer); it reports them as a
verdict with an exit code and never raises them out of ``check_file``/``check_bytes``.
"""

from __future__ import annotations


class KernelboundsError(Exception):
    """The root of every exception the library (outside the checker) raises on purpose."""


class InvalidArgument(KernelboundsError, ValueError):
    """An argument outside what the function accepts (a size, a name, a combination)."""


class UserFileChanged(InvalidArgument):
    """A file of a user folder changed, or can no longer be read, after the checker accepted
    it (``kernelbounds.hub.index.read``): the input's fault, so the command line exits 2
    (a shipped file that changes is :class:`StaleIndex`)."""


class StaleIndex(KernelboundsError, RuntimeError):
    """The shipped index or the stored computed sources are missing or malformed, or a
    listed file's bytes changed (``kernelbounds.hub.index``)."""
