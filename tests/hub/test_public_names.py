"""The public names (in the style of hypothesis' check of its strategies module): every name
of ``kernelbounds.__all__`` exists and is documented in docs/api.md, every public class or
function of kernelbounds.api is in it, and kernelbounds.testing's ``__all__`` likewise."""

import inspect
import re
from pathlib import Path

import kernelbounds as kb
from kernelbounds import api, testing

API_MD = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")


def documented(name: str) -> bool:
    """The name appears in docs/api.md as code: inside backticks, or used in an example as
    `kb.name` or `name(...)`."""
    bounded = rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"
    return any(re.search(pattern, API_MD) for pattern in (rf"`[^`\n]*{bounded}[^`\n]*`", rf"kb\.{re.escape(name)}(?![A-Za-z0-9_])", rf"(?<![A-Za-z0-9_.]){re.escape(name)}\("))


def test_every_name_in_all_exists_and_is_documented():
    assert len(set(kb.__all__)) == len(kb.__all__)
    for name in kb.__all__:
        assert getattr(kb, name) is not None, name
        assert name == "__version__" or documented(name), f"kernelbounds.{name} is not documented in docs/api.md"


def test_the_api_module_exports_the_same_list():
    assert api.__all__ == [n for n in kb.__all__ if n != "__version__"]
    for name in api.__all__:
        assert getattr(kb, name) is getattr(api, name), name


def test_nothing_public_is_missing_from_all():
    """Every public class or function defined in kernelbounds.api (or re-exported there from
    the library: a class or function named without an underscore) is in __all__."""
    public = {name for name, obj in vars(api).items()
              if not name.startswith("_") and (inspect.isclass(obj) or inspect.isfunction(obj))
              and (obj.__module__ == api.__name__ or name in api.__all__)}
    assert public <= set(api.__all__), sorted(public - set(api.__all__))
    assert set(dir(kb)) - {"__version__"} >= set(api.__all__)


def test_testing_all_exists_and_is_documented():
    for name in testing.__all__:
        assert hasattr(testing, name), name
        assert documented(name), f"kernelbounds.testing.{name} is not documented in docs/api.md"
    public = {name for name, obj in vars(testing).items()
              if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == testing.__name__}
    assert public <= set(testing.__all__), sorted(public - set(testing.__all__))
