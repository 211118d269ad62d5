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
    answer.forget()
    answer._stored.cache_clear()
    monkeypatch.setattr(answer, "_stored", lambda: stored.Stored(doc))


@pytest.fixture
def restore(monkeypatch):
    yield
    monkeypatch.undo()
    answer.forget()
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
            answer.forget()


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
    found = storedcheck.recheck((("cell", 8, 4, "position-independent"), st_doc.cells[(8, 4, "position-independent")], None))
    assert found.problem is not None and "/codes/bound" in found.problem
    untouched = storedcheck.recheck((("chain", 8, 4), st_doc.chains[(8, 4)], None))
    assert untouched.problem is None


def test_the_sample_is_deterministic_and_moves_with_the_seed():
    rows = storedcheck.rows(stored.Stored(SHIPPED))
    assert len(rows) == len(SHIPPED["cells"]) + len(SHIPPED["chains"]) + len(SHIPPED["code_files"])
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


def _small_folder(tmp_path, edit=None, files=("rank-one-infeasible-m04-n3.json",)):
    """A certificate folder with a few shipped files, the shipped COMPUTED with the code
    descriptions of exactly those files (edited by ``edit``) and an INDEX that lists them
    and the COMPUTED written (a consistent edit: only the rebuild or completeness can see it)."""
    from kernelbounds.release import workflow

    doc = json.loads(json.dumps(SHIPPED))
    doc["code_files"] = {name: row for name, row in doc["code_files"].items() if name in files}
    if edit:
        edit(doc)
    for name in files:
        shutil.copy(index.shipped() / name, tmp_path)
    index_text, computed_text = workflow.derived(workflow.check_folder(tmp_path, jobs=1), computed_text=stored.text(doc))
    (tmp_path / stored.NAME).write_text(computed_text)
    (tmp_path / index.INDEX).write_text(index_text)
    return tmp_path


def _seed_for(rows: list[tuple], count: int, wanted) -> str:
    """A seed whose sample of ``count`` rows satisfies ``wanted``."""
    return next(str(i) for i in range(100000) if wanted(storedcheck.sample(rows, count, str(i))))


def _cheap_seed(count: int) -> tuple[str, list[tuple]]:
    """A seed whose sample of ``count`` stored rows (no code file) holds only rows at m <= 8
    (rebuilt in milliseconds), and that sample."""
    rows = storedcheck.rows(stored.Stored(dict(SHIPPED, code_files={})))
    seed = _seed_for(rows, count, lambda chosen: all(r[0] != "code-file" and r[1] <= 8 for r in chosen))
    return seed, storedcheck.sample(rows, count, seed)


def test_verify_rechecks_the_sampled_rows(tmp_path, capsys):
    seed, _ = _cheap_seed(2)
    folder = _small_folder(tmp_path)
    assert main(["certificates", str(folder), "--verify", "--sample", "2", "--seed", seed, "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert f"2 stored rows (a sample chosen by the seed '{seed}') rebuilt and re-checked by the checker: 2 equal, 0 differ" in out


def test_a_verify_sample_rechecks_its_rows_without_the_whole_check(tmp_path, capsys, monkeypatch):
    from kernelbounds.release import shipped

    rows = storedcheck.rows(stored.Stored(dict(SHIPPED, code_files={})))
    seed = _seed_for(rows, 3, lambda chosen: all(r[0] != "code-file" and r[1] <= 8 for r in chosen) and any(r[0] == "chain" for r in chosen))
    m, n = next(r for r in storedcheck.sample(rows, 3, seed) if r[0] == "chain")[1:]

    def edit(doc):  # a sampled chain's rank raised
        next(c for c in doc["chains"] if (c["m"], c["n"]) == (m, n))["rank"] += 1

    folder = _small_folder(tmp_path, edit)
    monkeypatch.setattr(shipped, "check_set", lambda *a, **k: pytest.fail("--verify --sample ran the whole --check"))
    assert main(["certificates", str(folder), "--verify", "--sample", "3", "--seed", seed, "--jobs", "1", "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["stored_row"] for x in lines[:-1] if not x["ok"]] == [f"chain m = {m}, n = {n}"]
    assert lines[-1] == {"stored_rows_rechecked": 3, "stored_rows_differing": 1, "stored_incomplete": 0, "seed": seed}


def test_verify_names_an_edited_row(tmp_path, capsys):
    """A sampled chain's rank and claim raised together (or a cell's description edited): the
    row named, with the first pointer that differs from the rebuilt one."""
    seed, chosen = _cheap_seed(2)
    edited = next(r for r in chosen if r[0] == "chain" or _cell(SHIPPED, *r[1:])["codes"] is not None)

    def edit(doc):
        if edited[0] == "chain":
            row = next(c for c in doc["chains"] if (c["m"], c["n"]) == edited[1:])
            row["rank"] += 1
            row["claim"]["value"] += 1
        else:  # the printed description (a changed bound can change the cell's shape: completeness)
            _cell(doc, *edited[1:])["codes"]["detail"] += ", forged"

    folder = _small_folder(tmp_path, edit)
    assert main(["certificates", str(folder), "--verify", "--sample", "2", "--seed", seed, "--jobs", "1", "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    bad = [x for x in lines if x.get("stored_row") and not x["ok"]]
    assert [x["stored_row"] for x in bad] == [storedcheck.Rechecked(edited, None).label]
    assert ("/claim/value" if edited[0] == "chain" else "/codes/detail") in bad[0]["problem"]
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


# ---------------------------------------------------------------- completeness (hub/storedshape.py)


def _lose_all_but_two(doc):
    doc["cells"] = doc["cells"][:2]
    doc["chains"] = []


@pytest.mark.parametrize("sample", [None, 1])
def test_verify_finds_a_computed_that_lost_almost_everything(tmp_path, capsys, sample):
    """The reported case: 1,534 of the 1,536 rows gone (all chains).  Every missing row is
    named by its JSON pointer, before any row is rebuilt, with and without --sample; exit 1."""
    folder = _small_folder(tmp_path, _lose_all_but_two)
    args = ["certificates", str(folder), "--verify", "--jobs", "1", "--json"] + ([] if sample is None else ["--sample", str(sample), "--seed", "s"])
    assert main(args) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    missing = [x["stored_pointer"] for x in lines if "stored_pointer" in x]
    assert len(missing) == 1534 and "/cells/2" in missing and "/chains/383" in missing
    assert not any("stored_row" in x for x in lines)  # nothing rebuilt
    assert lines[-1]["stored_incomplete"] == 1534 and lines[-1]["stored_rows_rechecked"] == 0


def _at(doc, m, n, variant) -> int:
    return next(i for i, c in enumerate(doc["cells"]) if (c["m"], c["n"], c["variant"]) == (m, n, variant))


EDITS = {  # name: (edit, the pointer named); cell (20, 4, causal) is /cells/347, (12, 3, causal) /cells/200
    "a cell dropped": (lambda d: d["cells"].pop(_at(d, 20, 4, "causal")), "/cells/347: missing"),
    "a cell repeated": (lambda d: d["cells"].insert(348, d["cells"][347]), "/cells/348: a second cell"),
    "a chain dropped": (lambda d: d["chains"].pop(5), "/chains/5: missing"),
    "a kernel's certificate dropped": (lambda d: d["cells"][347]["codes"]["certificates"].pop("signed-any-denominator"),
                                       "/cells/347/codes/certificates/signed-any-denominator: missing"),
    "an orthant row dropped": (lambda d: d["cells"][200].update(orthant=None), "/cells/200/orthant: missing"),
    "a field added": (lambda d: d["chains"][7].update(extra=1), "/chains/7/extra: not a field"),
    "a code description for no file": (lambda d: d["code_files"].update({"nothing.json": {"sha256": "0" * 64, "summary": {}}}),
                                       "/code_files/nothing.json: not a committed code file"),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_verify_names_each_missing_or_extra_part(tmp_path, capsys, name):
    edit, named = EDITS[name]
    assert _at(SHIPPED, 20, 4, "causal") == 347 and _at(SHIPPED, 12, 3, "causal") == 200
    folder = _small_folder(tmp_path, edit)
    assert main(["certificates", str(folder), "--verify", "--sample", "1", "--seed", "s", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert f"COMPUTED at {named}" in out and "no stored row rebuilt" in out, out


def test_verify_rederives_the_committed_code_descriptions(tmp_path, capsys):
    """A committed code file's description (what `bound` prints: code name, N, k, least chain
    product, Johnson bound, witness count) forged with its sha256 kept: the code-file row,
    derived again from the file the checker accepted, names the field."""
    name = "lower-position-independent-m32-n3.json"
    kept = SHIPPED["code_files"][name]

    def edit(doc):
        doc["code_files"][name] = dict(kept, summary=dict(kept["summary"], johnson_bound=kept["summary"]["johnson_bound"] + 1))

    folder = _small_folder(tmp_path, edit, files=(name,))
    rows = storedcheck.rows(stored.Stored(json.loads((folder / stored.NAME).read_text())))
    seed = _seed_for(rows, 1, lambda chosen: chosen == [("code-file", name)])
    assert main(["certificates", str(folder), "--verify", "--sample", "1", "--seed", seed, "--jobs", "1", "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[-1] == {"stored_rows_rechecked": 1, "stored_rows_differing": 1, "stored_incomplete": 0, "seed": seed}
    (row,) = [x for x in lines if "stored_row" in x]
    assert row["stored_row"] == f"code file {name}" and "/summary/johnson_bound" in row["problem"]


def _shipped_text_with(edit) -> bytes:
    doc = json.loads(json.dumps(SHIPPED))
    edit(doc)
    return stored.text(doc).encode("ascii")


def _read_as_computed(monkeypatch, data: bytes) -> None:
    """The hub reads ``data`` as COMPUTED (as if INDEX listed its sha256)."""
    answer.forget()
    answer._stored.cache_clear()
    monkeypatch.setattr(answer, "_stored", lambda: stored.parse(data))


HUGE = "9" * 5000  # over Python's 4300-digit limit for reading a number


@pytest.mark.parametrize("corrupt, named", [
    (_shipped_text_with(lambda d: d["cells"].pop(347)), "COMPUTED is corrupt: at /cells/347: missing: no cell at m = 20, n = 4, variant = causal"),
    (stored.text(SHIPPED).replace('"bound": 4,', f'"bound": {HUGE},', 1).encode("ascii"), "COMPUTED is corrupt: not JSON this reader accepts: a number of more than 4300 digits"),
    (stored.text(SHIPPED).replace('"bound": 4,', f'"bound": {HUGE[:4000]},', 1).encode("ascii"), "COMPUTED is corrupt: at /cells/"),
    (b"[]", "COMPUTED is corrupt: not a JSON object but a JSON list"),
])
def test_a_corrupt_computed_is_stale_naming_it(monkeypatch, restore, capsys, corrupt, named):
    """Every cell's answer (the damaged one and any other) is StaleIndex naming COMPUTED and
    the JSON pointer (exit 4, one short line), never a KeyError, never exit 2 for the user's
    request, never a 4000-digit number in the message."""
    _read_as_computed(monkeypatch, corrupt)
    with pytest.raises(index.StaleIndex, match="COMPUTED is corrupt"):
        answer.bounds(20, 4, "causal")
    for m, n in ((20, 4), (7, 3)):
        answer.forget()
        capsys.readouterr()
        assert main(["bound", "--m", str(m), "--n", str(n), "--variant", "causal"]) == 4
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and named in err[0] and len(err[0]) < 600, err


@pytest.mark.parametrize("text, why", [("[]", "not a JSON object but a JSON list"), (f'{{"format": {HUGE}}}', "a number of more than 4300 digits"),
                                       ('{"format": "kernelbounds-computed", "version": 2, "cells": {}, "chains": [], "code_files": {}}', "/cells is not a JSON array"),
                                       (None, "refusing to read a FIFO")])
def test_verify_refuses_a_computed_that_is_no_such_document_in_one_line(tmp_path, capsys, text, why):
    """docs/cli.md: --verify exits 2 (one line, before any row is rebuilt) when DIR/COMPUTED
    cannot be read as the stored computed results (a FIFO there is never opened for a
    blocking read)."""
    import os

    folder = _small_folder(tmp_path)
    if text is None:
        (folder / stored.NAME).unlink()
        os.mkfifo(folder / stored.NAME)
    else:
        (folder / stored.NAME).write_text(text)
    capsys.readouterr()
    assert main(["certificates", str(folder), "--verify", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(folder / stored.NAME) in err[0] and why in err[0] and len(err[0]) < 600, err


@pytest.mark.parametrize("edit, why", [(lambda d: d["chains"].pop(5), "at /chains/5: missing"), (lambda d: d["cells"][3].update(m=10**4000), "<4001 digits")])
def test_reindex_refuses_to_keep_incomplete_rows(tmp_path, capsys, edit, why):
    """--reindex keeps COMPUTED's rows: rows that are not whole and complete are one line,
    exit 2, and neither INDEX nor COMPUTED is rewritten."""
    folder = _small_folder(tmp_path, edit)
    before = {name: (folder / name).read_bytes() for name in (index.INDEX, stored.NAME)}
    capsys.readouterr()
    assert main(["certificates", str(folder), "--reindex", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(folder / stored.NAME) in err[0] and why in err[0] and len(err[0]) < 600, err
    assert {name: (folder / name).read_bytes() for name in before} == before


def test_a_huge_stored_claim_is_named_short(monkeypatch, restore, capsys):
    """A stored claim's value of 4001 digits (a readable number, beside an ordinary bound) is
    refused with the number shortened to its digit count and leading digits."""
    def edit(doc):
        doc["cells"][347]["codes"]["certificates"]["nonnegative"]["claim"]["value"] = 10**4000

    _read_as_computed(monkeypatch, _shipped_text_with(edit))
    assert main(["bound", "--m", "20", "--n", "4", "--variant", "causal"]) == 4
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "code cell at m = 20, n = 4" in err[0] and "<4001 digits: 100000000000...>" in err[0] and len(err[0]) < 600, err
