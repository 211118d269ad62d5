"""Three API functions share their names with library modules (kernelbounds.evaluate,
kernelbounds.rank, kernelbounds.transcript).  Those modules are made callable: calling
the module calls the API function of the same name (docs/api.md), while
``from kernelbounds import rank`` still gives the module to library code."""

from __future__ import annotations

import sys
import types

SHARED = ("evaluate", "rank", "transcript")


class CallableModule(types.ModuleType):
    """A module that, when called, calls ``kernelbounds.api.<its name>``."""

    def __call__(self, *args, **kwargs):
        from . import api

        return getattr(api, self.__name__.rsplit(".", 1)[1])(*args, **kwargs)


def make_callable(module_name: str) -> None:
    sys.modules[module_name].__class__ = CallableModule
