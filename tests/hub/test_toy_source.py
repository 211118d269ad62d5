"""Adding a source is one module and one registry line (docs/adding-a-source.md): a toy
source (tests/hub/toysource.py) registered alone, with no edit to the hub or the release
room, is written by `certificates --write` (its file, INDEX and its COMPUTED rows), checked
by `--verify` (its stored rows rebuilt and re-checked), and answers `bound` and `table`,
from its committed file at m = 4 and from its stored row at m = 5."""

from __future__ import annotations

import json
import types

import pytest

import toysource
from kernelbounds import sources
from kernelbounds.cli import main
from kernelbounds.hub import answer, index


def _clear() -> None:
    for cached in (index.index_meta, index.entries, index.shipped_claims, index.read_shipped, answer._committed, answer._stored, sources.cell):
        cached.cache_clear()
    answer.forget()


@pytest.fixture
def toy_registry(monkeypatch, tmp_path):
    """The registry as a new source's author leaves it, cut down to the toy and the closed
    forms of U1 and U2 (without their committed files, so the whole set builds in seconds)."""
    closed_forms = types.SimpleNamespace(**{k: getattr(sources.constructions, k) for k in dir(sources.constructions) if not k.startswith("__")})
    closed_forms.entries = lambda: []
    monkeypatch.setattr(sources, "REGISTRY", {"constructions": closed_forms, "toy": toysource})
    monkeypatch.setattr(index, "shipped", lambda: tmp_path)
    monkeypatch.setenv("KERNELBOUNDS_CACHE", "off")
    _clear()
    yield tmp_path
    _clear()


def test_a_toy_source_is_written_verified_and_answered(toy_registry, capsys):
    folder = toy_registry
    assert main(["certificates", "--write", str(folder), "--jobs", "1"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["COMPUTED", "INDEX", "toy-m04-n3.json"]
    computed = json.loads((folder / "COMPUTED").read_text())
    rows = {(c["m"], c["n"], c["variant"]): c["toy"] for c in computed["cells"]}
    assert len(rows) == 64 * 6 * 3 and sum(r is not None for r in rows.values()) == 3
    assert rows[(5, 3, "causal")]["claim"]["value"] == 2  # the checker re-derived floor(5/2)
    capsys.readouterr()

    assert main(["certificates", "--verify", str(folder), "--jobs", "1"]) == 0
    assert "1152 stored rows (every stored row) rebuilt and re-checked by the checker: 1152 equal, 0 differ" in capsys.readouterr().out

    at4, at5 = answer.bounds(4, 3), answer.bounds(5, 3, "causal", kernel="signed")
    assert (at4.lower.value, at4.lower.method, at4.lower.certificate) == (2, "toy orthant family", "toy-m04-n3.json")
    assert (at5.lower.value, at5.lower.method, at5.lower.verdict["claim"]["value"]) == (2, "toy orthant family", 2)
    assert at5.lower.certificate_document() == toysource.build(5, 3, "causal")
    at6 = answer.bounds(6, 3).lower  # the committed file carries up in m (THEORY U5), the stored row only at m = 5
    assert (at6.value, at6.certificate, at6.from_m) == (2, "toy-m04-n3.json", 4)
    assert main(["bound", "--m", "5", "--n", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sides"]["lower"]["method"] == "toy orthant family"
    assert main(["table", "--m", "3..5", "--n", "3", "--json"]) == 0
    shown = capsys.readouterr().out
    assert [json.loads(line)["lower"] for line in shown.splitlines() if line.startswith("{")][:3] == [1, 2, 2]


def test_an_edited_toy_row_fails_verify(toy_registry, capsys):
    folder = toy_registry
    assert main(["certificates", "--write", str(folder), "--jobs", "1"]) == 0
    doc = json.loads((folder / "COMPUTED").read_text())
    cell = next(c for c in doc["cells"] if c["toy"] is not None)
    cell["toy"]["bound"] = 3  # a lie the checker's claim does not back
    (folder / "COMPUTED").write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["certificates", "--verify", str(folder), "--jobs", "1"]) == 1
    assert "/toy/bound" in capsys.readouterr().out



def test_every_stored_source_shapes_its_row():
    """Completeness (hub/storedshape) asks each stored source for its row's shape: every
    stored source of the registry has one, and every row of the committed COMPUTED passes it."""
    import json
    from pathlib import Path

    doc = json.loads((Path(__file__).resolve().parents[2] / "certificates" / "COMPUTED").read_text())
    for source in sources.stored("cell"):
        assert [(c["m"], c["n"], c["variant"], p) for c in doc["cells"] for p in source.shape(c[source.NAME], "/x", c["m"], c["n"], c["variant"], c)] == []
    for source in sources.stored("features"):
        assert [p for row in doc[source.NAME] for p in source.shape(row, "/x", row["m"], row["n"], "position-independent", {})] == []
    assert sources.stored("cell") and sources.stored("features")
