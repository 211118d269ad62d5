"""The certificate corpus: each file gives its specific exit code and names the field."""

import json
from pathlib import Path

import pytest

from kernelbounds.checker import Limits, check_file

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"
MANIFEST = json.loads((CORPUS / "MANIFEST.json").read_text())


def test_every_corpus_file_is_described():
    files = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.json")} - {"MANIFEST.json"}
    assert files == set(MANIFEST)
    assert {k.split("/")[0] for k in MANIFEST} == {"correct", "incorrect", "malformed", "limits"}


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_corpus_file(name):
    entry = MANIFEST[name]
    v = check_file(str(CORPUS / name), Limits().with_overrides(**entry.get("limits", {})))  # "limits": the runtime guard's entries
    assert v.code == entry["exit"], f"{entry['attack']}: {v.render()}"
    assert v.pointer == entry["pointer"], f"{entry['attack']}: {v.render()}"
    if v.code:
        assert v.reason
