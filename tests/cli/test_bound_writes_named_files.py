"""`bound` writes exactly the files named (docs/cli.md, "bound"): the base a rank extension
names by sha256 (THEORY U7+) only with --base-out, its exact bytes, found by the checker's
own resolver (hub.index.base_of; kb.Bound.lower_base); every file is built before any is
written, so a refusal writes nothing; the JSON names every file written."""

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

import kernelbounds as kb
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_file
from kernelbounds.cli import main
from kernelbounds.lowerbounds.rankextension import extend

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
BASE = "refutation-causal-m06-n3-r3.json"  # the base of extension-causal-m10-n3-r5.json
CAUSAL = ["bound", "--m", "10", "--n", "3", "--variant", "causal"]


@pytest.fixture(autouse=True)
def _here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KERNELBOUNDS_CACHE", "off")


def _run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_o_writes_the_extension_alone_and_never_over_a_file_of_its_base_name(tmp_path, capsys):
    (tmp_path / BASE).write_text("precious\n")
    code, out, err = _run(capsys, *CAUSAL, "-o", "lb.json", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["written"] == [{"option": "-o", "file": "lb.json", "replaced": False}]
    assert sorted(os.listdir(tmp_path)) == sorted([BASE, "lb.json"]) and (tmp_path / BASE).read_text() == "precious\n"
    v = check_file("lb.json")  # the hinted name among the shipped certificates (the local file has other bytes)
    assert v.ok and v.claim["value"] == 6


def test_base_out_writes_the_exact_bytes_named_and_says_when_it_replaces_a_file(tmp_path, capsys):
    (tmp_path / "base.json").write_text("old\n")
    code, out, err = _run(capsys, *CAUSAL, "-o", "lb.json", "--base-out", "base.json")
    assert code == 0 and err == ""
    assert "  certificate (-o): lb.json\n  base (--base-out): base.json (replaced the existing file)\n" in out
    named = json.loads((tmp_path / "lb.json").read_text())["base"]["sha256"]
    assert (tmp_path / "base.json").read_bytes() == (CERTS / BASE).read_bytes() and hashlib.sha256((tmp_path / "base.json").read_bytes()).hexdigest() == named
    assert sorted(os.listdir(tmp_path)) == ["base.json", "lb.json"]
    assert check_file("lb.json", bases=["base.json"]).ok


def test_o_to_a_device_writes_nothing_beside_it(capsys):
    before = set(os.listdir("/dev"))
    code, out, _ = _run(capsys, *CAUSAL, "-o", os.devnull, "--json")
    assert code == 0 and json.loads(out)["written"] == [{"option": "-o", "file": os.devnull, "replaced": False}]
    assert set(os.listdir("/dev")) <= before


def _user_folder(tmp_path: Path, hint: str | None) -> Path:
    """A position-independent extension of the m = 6 refutation to m = 10 (it wins the
    position-independent cell over the shipped causal one), its base under another name."""
    folder = tmp_path / "mine"
    folder.mkdir()
    base = "refutation-position-independent-m06-n3-r3.json"
    shutil.copy(CERTS / base, folder / "b.json")
    doc = extend(json.loads((CERTS / base).read_text()), hint or "unused.json", 2).certificate()
    if hint is None:
        del doc["base"]["name"]
    (folder / "ext.json").write_text(canonical_json(doc))
    return folder


@pytest.mark.parametrize("hint", [None, "nothere.json"], ids=["no-name-hint", "hint-naming-no-file"])
def test_a_user_extension_answers_and_its_base_is_found_by_sha256(tmp_path, capsys, hint):
    folder = _user_folder(tmp_path, hint)
    code, out, err = _run(capsys, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), "-o", "lb.json")
    assert code == 0 and err == "" and out.startswith("m = 10, n = 3 (position-independent): 6 <= r*")
    assert f"certificate {folder / 'ext.json'}" in out and sorted(os.listdir(tmp_path)) == ["lb.json", "mine"]
    code, out, err = _run(capsys, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), "-o", "lb.json", "--base-out", "base.json", "--json")
    assert code == 0 and err == "" and [w["file"] for w in json.loads(out)["written"]] == ["lb.json", "base.json"]
    assert (tmp_path / "base.json").read_bytes() == (folder / "b.json").read_bytes()
    assert check_file("lb.json", bases=["base.json"]).ok
    name, data = kb.bound(10, 3, certificates=str(folder)).lower_base()
    assert name == hint and data == (folder / "b.json").read_bytes()


def test_a_base_removed_after_an_answer_is_seen_by_the_next_call(tmp_path, capsys):
    """The folder is read as it is at each call: once the user's base is gone, the user's
    extension is no longer believed, and the side (and the base written) is the shipped one."""
    folder = _user_folder(tmp_path, None)
    mine = (folder / "b.json").read_bytes()
    assert kb.bound(10, 3, certificates=str(folder)).lower_base() == (None, mine)  # the user's extension, believed with its base
    (folder / "b.json").unlink()
    code, out, err = _run(capsys, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), "-o", "lb.json", "--base-out", "base.json")
    assert code == 0 and "ext.json" in err and "ext.json" not in out  # one warning naming the rejected file
    assert sorted(os.listdir(tmp_path)) == ["base.json", "lb.json", "mine"]
    assert (tmp_path / "base.json").read_bytes() == (CERTS / BASE).read_bytes()


@pytest.mark.parametrize("args", [["--m", "24", "--n", "3", "-o", "a.json", "--base-out", "b.json"], [*CAUSAL[1:], "-o", "a.json", "--base-out", "./a.json"],
                                  ["--m", "2", "--n", "2", "--upper-output", "u.json", "-o", "a.json"]],
                         ids=["no-base", "one-file-twice", "trivial-lower-side"])
def test_a_refused_output_is_one_line_exit_2_and_nothing_written(tmp_path, capsys, args):
    code, out, err = _run(capsys, "bound", *args)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("kernelbounds: error: ")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard-link"])
@pytest.mark.parametrize("exists", [False, True], ids=["new", "existing"])
def test_two_options_naming_one_file_through_a_link_are_refused(tmp_path, capsys, link, exists):
    """docs/cli.md, "Output files": two options naming one file are refused (exit 2, one
    line, nothing written) also when one names it through a symlink (to a file not yet
    there, or one that is) or a hard link; the names are compared as resolved files."""
    if exists or link is os.link:
        (tmp_path / "x.json").write_text("old")
    link("x.json" if link is os.symlink else tmp_path / "x.json", tmp_path / "alias.json")
    before = {p: (tmp_path / p).read_bytes() if (tmp_path / p).exists() else None for p in os.listdir(tmp_path)}
    code, out, err = _run(capsys, "bound", "--m", "10", "--n", "3", "-o", "x.json", "--upper-output", "alias.json", "--json")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "another option" in err
    assert {p: (tmp_path / p).read_bytes() if (tmp_path / p).exists() else None for p in os.listdir(tmp_path)} == before


def test_a_user_file_changed_after_its_check_is_the_inputs_fault(tmp_path, capsys, monkeypatch):
    """A user folder's file whose bytes differ, when read again for -o, from the bytes the
    checker accepted is UserFileChanged: one line, exit 2 (not StaleIndex's exit 4), and no
    file written; the changed bytes are never copied."""
    from kernelbounds.errors import UserFileChanged
    from kernelbounds.hub import index

    folder = tmp_path / "mine"
    folder.mkdir()
    assert main(["bound", "--m", "10", "--n", "9", "-o", str(folder / "lb.json")]) == 0
    capsys.readouterr()
    checked = index.folder_claims(str(folder))  # the claims as the checker accepted them
    k = next(k for k in checked if k.filename == "lb.json")
    assert index.read(k) == (folder / "lb.json").read_bytes()
    (folder / "lb.json").write_bytes((folder / "lb.json").read_bytes() + b" ")  # then the file changes
    with pytest.raises(UserFileChanged, match="lb.json changed after it was checked"):
        index.read(k)
    monkeypatch.setattr(index, "folder_claims", lambda f: checked)
    code, out, err = _run(capsys, "bound", "--m", "10", "--n", "9", "--certificates", str(folder), "-o", "copy.json")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "changed after it was checked" in err, (code, err)
    assert not (tmp_path / "copy.json").exists()


def test_the_api_names_the_base_of_a_shipped_extension_and_none_otherwise():
    name, data = kb.bound(10, 3, "causal").lower_base()
    assert name == BASE and data == (CERTS / BASE).read_bytes()
    assert kb.bound(24, 3).lower_base() is None
