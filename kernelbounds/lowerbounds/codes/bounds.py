"""Transitional alias of codes/johnson.py for lowerbounds/assemble.py's import (being
rewritten on another branch); delete once assemble imports ``.codes.johnson``."""

from .johnson import johnson  # noqa: F401
