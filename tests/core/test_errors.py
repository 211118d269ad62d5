"""One error root: every exception class the library defines outside the checker derives
from kernelbounds.errors.KernelboundsError and keeps its builtin category; the checker's
rejections keep their own root (it imports nothing from the package)."""

import importlib
import inspect
import pkgutil

import pytest

import kernelbounds
from kernelbounds.errors import InvalidArgument, KernelboundsError


def _library_modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(kernelbounds.__path__, "kernelbounds.")]
    return sorted(n for n in names if not n.startswith("kernelbounds.checker") and not n.endswith("__main__"))


def _defined_exceptions(module) -> list[type]:
    return [c for _, c in inspect.getmembers(module, inspect.isclass) if issubclass(c, BaseException) and c.__module__ == module.__name__]


def test_every_library_exception_derives_from_the_root():
    found, outside, signals = [], [], []
    for name in _library_modules():
        module = importlib.import_module(name)
        for cls in _defined_exceptions(module):
            found.append(cls)
            if not issubclass(cls, Exception):  # a signal unwinding the command, as KeyboardInterrupt does
                signals.append(f"{name}.{cls.__name__}")
            elif not issubclass(cls, KernelboundsError):
                outside.append(f"{name}.{cls.__name__}")
    assert not outside, f"exception classes outside the root: {outside}"
    assert signals == ["kernelbounds.cli.Terminated"]  # SIGTERM, raised only by the command line's handler
    # the walk reached the classes the API documents (so it could have failed)
    names = {c.__name__ for c in found}
    assert {"KernelboundsError", "InvalidArgument", "HeadError", "FamilyError", "StaleIndex", "TheoryContradicted", "UserError"} <= names


def test_the_builtin_categories_are_kept():
    from kernelbounds.heads.tables import HeadError
    from kernelbounds.hub.index import StaleIndex
    from kernelbounds.lowerbounds.refutation import SolverMissing

    assert issubclass(InvalidArgument, ValueError) and issubclass(HeadError, ValueError)
    assert issubclass(StaleIndex, RuntimeError) and issubclass(SolverMissing, RuntimeError)


def test_the_checker_keeps_its_own_root():
    from kernelbounds.checker import errors as checker_errors

    rejections = _defined_exceptions(checker_errors)
    assert rejections and all(not issubclass(c, KernelboundsError) for c in rejections)
    assert all(issubclass(c, checker_errors.Rejection) for c in rejections)


def test_a_bad_argument_of_the_public_api_is_caught_by_the_root():
    # m = 0 has no tokens: every public entry point refuses it with the root's class
    with pytest.raises(KernelboundsError) as info:
        kernelbounds.bound(0, 3)
    assert isinstance(info.value, ValueError)
