"""JSON Schemas shipped with the package: certificate formats v1 and v2, head files v1, and the
`--json` outputs of `bound` (also ``kb.bound(...).to_json()``), `table` (one row) and
`table --grid` (one block).

The certificate and head schemas describe layout only; the checker (kernelbounds.checker) decides validity.
"""

from __future__ import annotations

import json
from importlib import resources
from ..errors import InvalidArgument


NAMES = ("certificate-v1", "certificate-v2", "head-v1", "bound", "table-row", "table-grid")


def load(name: str) -> dict:
    """The schema ``name`` (one of NAMES) as a dict."""
    if name not in NAMES:
        raise InvalidArgument(f"unknown schema {name!r}: one of {', '.join(NAMES)}")
    return json.loads(resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8"))
