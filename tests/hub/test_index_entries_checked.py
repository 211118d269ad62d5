"""The shipped index is believed only when each entry is whole and consistent: a fabricated,
tampered or malformed entry is StaleIndex (CLI: one line, exit 4), never a changed answer
or a traceback (docs/index-format.md, "Reading the index")."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from kernelbounds.cli import main
from kernelbounds.hub import answer, index
from kernelbounds.hub.entrycheck import digest, entry_problem, header_problem

REFUTATION = "refutation-position-independent-m06-n3-r3.json"  # proves r*(6, 3) >= 4
REAL = json.loads(json.dumps(index.index_meta()))
CELLS = ((4, 3), (6, 3), (8, 3), (5, 4), (12, 3))


def _clear() -> None:
    for cached in (index.index_meta, index.entries, index.shipped_claims, index.read_shipped, answer._committed):
        getattr(cached, "cache_clear", lambda: None)()  # index_meta may be the injected one
    answer.forget()


def _inject(monkeypatch, doc) -> None:
    _clear()
    monkeypatch.setattr(index, "index_meta", lambda: doc)


@pytest.fixture
def restore(monkeypatch):
    yield
    monkeypatch.undo()
    _clear()


def _edited(target: str, redigest: bool, **fields) -> dict:
    doc = json.loads(json.dumps(REAL))
    for e in doc["certificates"]:
        if e["name"] == target:
            for key, value in fields.items():
                if key.startswith("claim."):
                    e["claim"][key[6:]] = value
                else:
                    e[key] = value
            if redigest:
                e["digest"] = digest(e)
    return doc


def _answer(m: int, n: int, variant: str) -> tuple:
    a = answer.bounds(m, n, variant)
    return (a.lower.value, a.lower.certificate, a.upper.value, a.upper.certificate, a.upper_nonnegative.value, a.upper_nonnegative.certificate)


BASELINE: dict[tuple, tuple] = {}


def _baseline(cell: tuple) -> tuple:
    if cell not in BASELINE:
        BASELINE[cell] = _answer(*cell)
    return BASELINE[cell]


def _cells(entry: dict) -> list[tuple]:
    """A few fixed cells, and the cell of the entry itself (where its claim would show)."""
    cells = [(m, n, "position-independent") for m, n in CELLS]
    if isinstance(entry.get("m"), int) and isinstance(entry.get("n"), int) and entry["n"] >= 3:
        cells.append((entry["m"], entry["n"], entry.get("variant") or "position-independent"))
    return cells


def test_every_shipped_entry_is_whole_and_agrees_with_its_file():
    for e in REAL["certificates"]:
        assert entry_problem(e) is None, e["name"]
        assert header_problem(e, json.loads((index.shipped() / e["name"]).read_bytes())) is None, e["name"]


@pytest.mark.parametrize("redigest", [False, True])
def test_a_claim_edited_to_m8_value6_on_the_m6_refutation_is_stale(monkeypatch, restore, capsys, redigest):
    """Without a fresh digest the digest tells; with one, the claim's m = 8 against the
    entry's m = 6 does; with the entry's m edited too, the file's header does when it is cited."""
    _inject(monkeypatch, _edited(REFUTATION, redigest, **{"claim.m": 8, "claim.value": 6}))
    with pytest.raises(index.StaleIndex, match=REFUTATION):
        answer.bounds(8, 3)
    assert main(["bound", "--m", "8", "--n", "3"]) == 4
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and REFUTATION in err[0]


def test_a_consistent_lie_about_m_is_caught_by_the_cited_files_header(monkeypatch, restore):
    _inject(monkeypatch, _edited(REFUTATION, True, m=8, **{"claim.m": 8, "claim.value": 6}))
    with pytest.raises(index.StaleIndex, match="header|the file's m"):
        answer.bounds(8, 3)


@pytest.mark.parametrize("name", ["../certificates/" + REFUTATION, "/etc/passwd", "..", "a\\b.json", "", "x\n.json"])
def test_a_name_outside_the_folder_is_stale(monkeypatch, restore, name):
    _inject(monkeypatch, _edited(REFUTATION, True, name=name))
    with pytest.raises(index.StaleIndex, match="plain file name|non-empty"):
        answer.bounds(6, 3)


@pytest.mark.parametrize("field, value", [
    ("claim", []), ("claim", "lower"), ("claim.value", "5"), ("claim.value", None), ("claim.variants", "position-independent"),
    ("claim.kernels", None), ("claim.m", True), ("claim.side", 3), ("sha256", 7), ("kind", None), ("m", -1), ("variant", "sideways"),
])
def test_a_malformed_entry_is_stale_not_a_traceback(monkeypatch, restore, capsys, field, value):
    _inject(monkeypatch, _edited(REFUTATION, True, **{field: value}))
    with pytest.raises(index.StaleIndex):
        answer.bounds(6, 3)
    assert main(["bound", "--m", "6", "--n", "3"]) == 4
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("kernelbounds: error: the shipped certificate index"), err


def test_a_malformed_computed_record_is_stale(monkeypatch, restore):
    doc = json.loads(json.dumps(REAL))
    doc["computed"] = {"name": "COMPUTED"}
    _inject(monkeypatch, doc)
    answer._stored.cache_clear()
    with pytest.raises(index.StaleIndex):
        answer.bounds(30, 3)
    answer._stored.cache_clear()


def _mutations(value) -> st.SearchStrategy:
    """Values other than `value`: a shifted number, another type, null, a changed string or list."""
    other_type = st.sampled_from([None, "x", [], {}, 1.5, True]).filter(lambda v: type(v) is not type(value) or v != value)
    if isinstance(value, bool):
        return st.just(not value) | other_type
    if isinstance(value, int):
        return st.integers(1, 8).flatmap(lambda d: st.sampled_from([value + d, value - d])) | other_type
    if isinstance(value, str):
        return st.sampled_from(["0", "x", "/"]).map(lambda c: value + c) | other_type
    if isinstance(value, list):
        return st.just(value[:-1] if value else [1]) | st.just(value + value[-1:] if value else ["x"]) | other_type
    return other_type


@st.composite
def single_field_mutation(draw):
    """One real entry with exactly one field (top level, or of its claim) changed."""
    doc = json.loads(json.dumps(REAL))
    e = draw(st.sampled_from(doc["certificates"]))
    original = dict(e)
    paths = [(k,) for k in e] + ([("claim", k) for k in e["claim"]] if isinstance(e["claim"], dict) else [])
    path = draw(st.sampled_from(paths))
    holder = e if len(path) == 1 else e["claim"]
    holder[path[-1]] = draw(_mutations(holder[path[-1]]))
    return doc, original, path


@given(single_field_mutation())
def test_any_single_field_mutation_is_detected_or_changes_no_answer(mutation):
    """Over the entry's own cell and a few fixed ones: either the hub refuses (StaleIndex)
    or it answers exactly as from the real index."""
    doc, original, path = mutation
    cells = _cells(original)
    baseline = [_baseline(cell) for cell in cells]
    mp = pytest.MonkeyPatch()
    try:
        _inject(mp, doc)
        try:
            got = [_answer(*cell) for cell in cells]
        except index.StaleIndex:
            got = None  # detected
        assert got is None or got == baseline, (original["name"], path)
    finally:
        mp.undo()
        _clear()


@pytest.mark.parametrize("kind", ["orthant", "rank-refutation", "level-family", "level-family-minimality", "transcript"])
def test_the_entry_written_now_is_the_shipped_one_digest_included(kind):
    """index.entry (what `kernelbounds certificates --write` lists) gives the shipped entry
    byte for byte, its digest included, for the smallest file of a few kinds."""
    from kernelbounds.checker import check_bytes

    e = min((e for e in REAL["certificates"] if e["kind"] == kind), key=lambda e: ((index.shipped() / e["name"]).stat().st_size, e["name"]))
    data = (index.shipped() / e["name"]).read_bytes()
    assert index.entry(e["name"], data, check_bytes(data, e["name"])) == e
