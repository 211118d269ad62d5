"""Every number the hub prints is a checker verdict: the stored computed results (COMPUTED)
carry the sha256 of the certificate the generator wrote and the claim the checker
re-derived from those bytes; the hub prints the claim's value, refuses a stored claim that
disagrees with its row, and `certificates --verify` rebuilds and re-checks rows."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given, settings, strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from kernelbounds.cli import main
from kernelbounds.hub import answer, index, stored
from kernelbounds.release import storedcheck

VARIANTS = stored.VARIANTS
KERNELS = answer.KERNELS
SHIPPED = json.loads((index.shipped() / stored.NAME).read_bytes())


def _pairs():
    return [(v, k) for v in VARIANTS for k in KERNELS if not (k == "signed-any-denominator" and v == "position-dependent")]


def test_every_side_over_the_stored_grid_has_a_checker_verdict():
    """m = 2..64, n = 3..8, every variant and kernel class: each side's value is the claim
    of a verdict (a checked file, or a rebuilt certificate the checker accepted), except
    the trivial r >= 1."""
    missing = []
    for variant, kernel in _pairs():
        for m in range(2, 65):
            for n in range(3, 9):
                a = answer.bounds(m, n, variant, kernel=kernel)
                for name, side in (("lower", a.lower), ("upper", a.upper), ("upper_nonnegative", a.upper_nonnegative)):
                    if side.verdict is None:
                        if side.method != "trivial":
                            missing.append((m, n, variant, kernel, name, side.method))
                    elif "claim" in side.verdict:
                        assert side.verdict["claim"]["value"] == side.value, (m, n, variant, kernel, name)
    assert missing == []


@pytest.mark.parametrize("m, n, variant, kernel", [(20, 4, "position-independent", "nonnegative"), (13, 5, "position-dependent", "signed"),
                                                   (26, 4, "causal", "signed-any-denominator"), (11, 7, "causal", "nonnegative")])
def test_a_rebuilt_side_is_the_certificate_the_checker_accepted(m, n, variant, kernel):
    """The certificate a computed side rebuilds has the stored sha256, and the checker, run
    now on those bytes, re-derives exactly the stored claim."""
    a = answer.bounds(m, n, variant, kernel=kernel)
    rebuilt = [s for s in (a.lower, a.upper_nonnegative) if s.verdict and s.verdict["source"].startswith("rebuilt")]
    assert rebuilt, "this cell has computed sides"
    for side in rebuilt:
        data = canonical_json(side.certificate_document()).encode("ascii")
        assert index.sha256(data) == side.verdict["sha256"]
        v = check_bytes(data, "rebuilt")
        assert v.ok and v.claim == side.verdict["claim"] and v.claim["value"] == side.value


def _with_cell(monkeypatch, doc: dict) -> None:
    """The hub reads ``doc`` as COMPUTED (as if INDEX listed its sha256: a consistent edit)."""
    answer._ANSWERS.clear()
    answer._stored.cache_clear()
    monkeypatch.setattr(answer, "_stored", lambda: stored.Stored(doc))


@pytest.fixture
def restore(monkeypatch):
    yield
    monkeypatch.undo()
    answer._ANSWERS.clear()
    answer._stored.cache_clear()


def _cell(doc: dict, m: int, n: int, variant: str) -> dict:
    return next(c for c in doc["cells"] if (c["m"], c["n"], c["variant"]) == (m, n, variant))


STORED_CODE_CERTIFICATES = sorted((c["m"], c["n"], c["variant"], stated) for c in SHIPPED["cells"] if c["codes"] for stated in c["codes"]["certificates"])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(STORED_CODE_CERTIFICATES), st.integers(1, 5).flatmap(lambda d: st.sampled_from([d, -d])))
def test_a_stored_claim_edited_alone_is_stale(where, shift):
    """A code cell's stored claim moved by any amount, its sha256 and bound left alone, is
    refused (StaleIndex naming COMPUTED's code cell) for the kernel class it would decide,
    never printed."""
    m, n, variant, stated = where
    doc = json.loads(json.dumps(SHIPPED))
    _cell(doc, m, n, variant)["codes"]["certificates"][stated]["claim"]["value"] += shift
    with pytest.MonkeyPatch.context() as patch:
        _with_cell(patch, doc)
        try:
            with pytest.raises(index.StaleIndex, match=f"code cell at m = {m}, n = {n}"):
                answer.bounds(m, n, variant, kernel="nonnegative" if stated == "nonnegative" else "signed")
        finally:
            answer._ANSWERS.clear()


@pytest.mark.parametrize("field", ["sha256", "claim"])
def test_a_chain_verdict_that_is_not_whole_is_stale(monkeypatch, restore, field):
    doc = json.loads(json.dumps(SHIPPED))
    chain = next(c for c in doc["chains"] if (c["m"], c["n"]) == (20, 4))
    chain[field] = "x" if field == "sha256" else None
    _with_cell(monkeypatch, doc)
    with pytest.raises(index.StaleIndex):
        answer.bounds(20, 4)
    assert main(["bound", "--m", "20", "--n", "4"]) == 4


def test_a_consistent_edit_is_found_by_the_recheck():
    """Bound and claim raised together (nothing at read can tell): rebuilding and
    re-checking the row names the first field that differs."""
    doc = json.loads(json.dumps(SHIPPED))
    cell = _cell(doc, 8, 4, "position-independent")
    cell["codes"]["bound"] += 1
    for entry in cell["codes"]["certificates"].values():
        entry["claim"]["value"] += 1
    st_doc = stored.Stored(doc)
    found = storedcheck.recheck((("cell", 8, 4, "position-independent"), st_doc.cells[(8, 4, "position-independent")]))
    assert found.problem is not None and "/codes/bound" in found.problem
    untouched = storedcheck.recheck((("chain", 8, 4), st_doc.chains[(8, 4)]))
    assert untouched.problem is None


def test_the_sample_is_deterministic_and_moves_with_the_seed():
    rows = storedcheck.rows(stored.Stored(SHIPPED))
    assert len(rows) == len(SHIPPED["cells"]) + len(SHIPPED["chains"])
    a, b = storedcheck.sample(rows, 5, "one"), storedcheck.sample(rows, 5, "one")
    assert a == b and len(a) == 5 and set(a) <= set(rows)
    assert any(storedcheck.sample(rows, 5, seed) != a for seed in ("two", "three", "four"))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=8)


@given(JSON, st.integers())
def test_first_difference_is_none_for_equal_values_and_names_a_change(value, extra):
    assert storedcheck.first_difference(value, json.loads(json.dumps(value))) is None
    assert storedcheck.first_difference({"a": value}, {"a": value, "b": extra}) == "/b"
    assert storedcheck.first_difference({"a": [value, 1]}, {"a": [value, 2]}) == "/a/1"


def _small_folder(tmp_path, edit=None):
    """A certificate folder with one shipped file, COMPUTED cut to m <= 5 (edited by
    ``edit``) and an INDEX that lists both."""
    from kernelbounds.release import workflow

    doc = json.loads(json.dumps(SHIPPED))
    doc["cells"] = [c for c in doc["cells"] if c["m"] <= 5 and c["n"] == 3]
    doc["chains"] = [c for c in doc["chains"] if c["m"] <= 5 and c["n"] == 3]
    doc["code_files"] = {}
    if edit:
        edit(doc)
    (tmp_path / stored.NAME).write_text(stored.text(doc))
    shutil.copy(index.shipped() / "rank-one-infeasible-m04-n3.json", tmp_path)
    workflow.reindex(tmp_path, jobs=1)
    return tmp_path


def test_verify_rechecks_every_stored_row(tmp_path, capsys):
    folder = _small_folder(tmp_path)
    assert main(["certificates", str(folder), "--verify", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "20 stored rows (every stored row) rebuilt and re-checked by the checker: 20 equal, 0 differ" in out


def test_verify_names_an_edited_row(tmp_path, capsys):
    def edit(doc):
        chain = next(c for c in doc["chains"] if c["m"] == 4)
        chain["rank"] += 1
        chain["claim"]["value"] += 1

    folder = _small_folder(tmp_path, edit)
    assert main(["certificates", str(folder), "--verify", "--jobs", "1", "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    bad = [x for x in lines if x.get("stored_row") and not x["ok"]]
    assert [x["stored_row"] for x in bad] == ["chain m = 4, n = 3"] and "/claim/value" in bad[0]["problem"]
    assert lines[-1]["stored_rows_differing"] == 1


@pytest.mark.parametrize("field, value", [("m", "8"), ("m", 65), ("n", 2), ("variant", "sideways"), ("m", None)])
def test_verify_refuses_a_row_outside_the_grid_in_one_line(tmp_path, capsys, field, value):
    """A COMPUTED whose row key is not in the stored grid is a user's error (exit 2, one
    line), found before any row is rebuilt, never a traceback from a worker."""
    def edit(doc):
        doc["cells"][0][field] = value

    folder = _small_folder(tmp_path, edit)
    assert main(["certificates", str(folder), "--verify", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "outside the stored grid" in err[0], err
