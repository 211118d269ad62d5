"""The shipped certificate set by name (kernelbounds.release.shipped: `certificates --list`, `--path`,
kb.certificate_path, names resolved by check) and checked as it is (`certificates --check`)."""

import json
import shutil
from pathlib import Path

import pytest

import kernelbounds as kb
from kernelbounds.release import shipped
from kernelbounds.release import workflow
from kernelbounds.checker import check_file

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["construction-tensor-m03-n3.json", "construction-softmax-m02-n3.json", "rank-one-infeasible-m04-n3.json"]


def test_the_shipped_names_are_the_committed_files_and_each_path_has_their_bytes():
    committed = sorted(p.name for p in (ROOT / "certificates").glob("*.json"))
    assert shipped.names() == committed == kb.certificate_names() and len(committed) > 400
    for name in committed[:: max(1, len(committed) // 25)]:
        assert shipped.path(name).read_bytes() == (ROOT / "certificates" / name).read_bytes()


@pytest.mark.parametrize("given", ["witness-m24-n3-r8.json", "witness-m24-n3-r8", "certificates/witness-m24-n3-r8.json", "/no/such/folder/witness-m24-n3-r8.json"])
def test_a_shipped_name_resolves_with_or_without_suffix_and_folder(given):
    found = kb.certificate_path(given)
    assert found.name == "witness-m24-n3-r8.json" and found.read_bytes() == (ROOT / "certificates" / "witness-m24-n3-r8.json").read_bytes()


@pytest.mark.parametrize("given", ["witness-m24-n3-r9.json", "INDEX", "COMPUTED", "", "../README.md"])
def test_a_name_that_is_not_a_shipped_certificate_is_a_lookup_error_naming_it(given):
    with pytest.raises(LookupError, match="is not a shipped certificate"):
        kb.certificate_path(given)


def test_check_of_a_missing_local_path_checks_the_shipped_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    v = kb.check("certificates/witness-m24-n3-r8.json")
    assert v.ok and v.path == str(shipped.path("witness-m24-n3-r8.json")) and "r >= 8" in v.summary
    (tmp_path / "witness-m24-n3-r8.json").write_text("{")  # a local file of that name wins
    assert kb.check("witness-m24-n3-r8.json").code == 2


def small_set(folder: Path, names=SMALL) -> Path:
    """A folder holding a few committed files, the shipped COMPUTED and an INDEX written by the
    generators' workflow (catalog.reindex, which checks every file itself)."""
    folder.mkdir()
    for name in [*names, "COMPUTED"]:
        shutil.copy(ROOT / "certificates" / name, folder / name)
    rejected, _, _ = workflow.reindex(folder, jobs=1)
    assert rejected == []
    return folder


def test_a_consistent_set_checks_and_every_kind_of_damage_is_reported(tmp_path):
    folder = small_set(tmp_path / "set")
    result = shipped.check_set(folder, jobs=2)
    assert result.ok and [r.name for r in result.rows] == sorted(SMALL) and all(r.verdict.ok for r in result.rows)
    assert [r.verdict.work for r in result.rows] == [check_file(str(folder / name)).work for name in sorted(SMALL)]
    # a false claim: rejected, and then missing from the index the verdicts give
    doc = json.loads((folder / SMALL[0]).read_text())
    doc["claims"]["kernel_rank"] += 1
    (folder / SMALL[0]).write_text(json.dumps(doc))
    damaged = shipped.check_set(folder, jobs=1)
    assert [r.name for r in damaged.rejected] == [SMALL[0]] and not damaged.index_same and damaged.problems == 2
    # a valid file INDEX does not list, and a listed file that is gone
    folder = small_set(tmp_path / "set2")
    shutil.copy(ROOT / "certificates" / "construction-tensor-m04-n3.json", folder)
    (folder / SMALL[1]).unlink()
    changed = shipped.check_set(folder, jobs=2)
    assert changed.unindexed == ["construction-tensor-m04-n3.json"] and changed.missing == [SMALL[1]] and not changed.index_same and not changed.rejected
    # COMPUTED changed: its sha256 no longer the one INDEX records
    folder = small_set(tmp_path / "set3")
    (folder / "COMPUTED").write_bytes((folder / "COMPUTED").read_bytes() + b" ")
    assert not shipped.check_set(folder, jobs=1).index_same


def test_a_code_file_whose_sha256_computed_does_not_record_is_reported(tmp_path):
    name = "witness-m24-n3-r8.json"  # a lower-bound file (a code) that checks in about a second
    folder = small_set(tmp_path / "set", [name])
    assert shipped.check_set(folder, jobs=1).ok
    doc = json.loads((folder / "COMPUTED").read_text())
    doc["code_files"][name]["sha256"] = "0" * 64
    (folder / "COMPUTED").write_text(json.dumps(doc))
    result = shipped.check_set(folder, jobs=1)
    assert result.code_files_stale == [name] and not result.index_same
