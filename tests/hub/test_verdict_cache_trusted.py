"""The verdict cache is trusted no further than the user's own files (docs/soundness.md,
"The verdict cache"): an entry forged, copied from another cache, or reached through a
folder or file someone else can write is never believed; a FIFO in the cache never blocks;
a verdict that depends on the files beside it (a rank extension's base) is decided again."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from pathlib import Path

import pytest

import kernelbounds as kb
from helpers import folder_claims, spy_checks

from kernelbounds.checker import Limits
from kernelbounds.cli import main
from kernelbounds.hub import answer, cache, folders

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
ORTHANT = "orthant-causal-m12-n3.json"  # checked in milliseconds
OTHER_UID = 65534  # nobody


def _fresh():
    folders._MEMO.clear()
    cache.WARNED.clear()
    answer.forget()


def _reencoded(name: str) -> bytes:
    return json.dumps(json.loads((CERTS / name).read_text()), separators=(",", ":")).encode()


def _entry_path(cache_root: Path, data: bytes) -> Path:
    return cache_root / "verdicts" / f"{cache.key(hashlib.sha256(data).hexdigest(), Limits())}.json"


def _forged_upper(data: bytes, k: str) -> dict:
    """A well-formed entry claiming an upper bound 7 at m = 10, n = 3 for these bytes (any
    MAC a forger can write without the user's secret)."""
    claim = {"side": "upper", "m": 10, "n": 3, "value": 7, "variants": ["causal", "position-dependent", "position-independent"],
             "kernels": ["nonnegative", "signed", "signed-any-denominator"], "nonnegative_features": True, "support": None, "family": None}
    return {"format": cache.FORMAT, "key": k, "code": 0, "kind": "explicit-head", "claim": claim, "pointer": "", "reason": "", "variant": None, "mac": "0" * 64}


@pytest.mark.parametrize("secret_first", [False, True])
def test_a_forged_entry_for_a_malformed_file_is_never_believed(tmp_path, monkeypatch, capsys, secret_first):
    """The reported attack: an entry under the right key claiming upper 7 at m = 10, n = 3
    for a file the checker calls MALFORMED.  The answer stays the shipped one (above 7), with one
    warning naming the rejected file, whether or not the user's secret exists yet."""
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "user"
    folder.mkdir()
    data = b'{"kind": "explicit-head", garbage'
    (folder / "fake.json").write_bytes(data)
    if secret_first:  # the user's cache already holds a key (and a genuine entry)
        (tmp_path / "other").mkdir()
        (tmp_path / "other" / ORTHANT).write_bytes(_reencoded(ORTHANT))
        _fresh()
        folder_claims(tmp_path / "other")
        assert (tmp_path / "cache" / "verdicts" / cache.SECRET).stat().st_mode & 0o777 == 0o600
    entry = _entry_path(tmp_path / "cache", data)
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(json.dumps(_forged_upper(data, entry.stem)))
    _fresh()
    capsys.readouterr()
    assert main(["bound", "--m", "10", "--n", "3", "--certificates", str(folder), "--json"]) == 0
    out, err = capsys.readouterr()
    shipped = kb.bound(10, 3).upper
    assert shipped > 7 and json.loads(out)["upper"] == shipped, out
    assert "fake.json" in err and "rejects it (malformed" in err


def test_an_entry_copied_from_another_cache_is_not_believed(tmp_path, monkeypatch):
    """Two caches, two secrets: an entry copied from one into the other is checked again
    (the copy's MAC is under the other user's key), then rewritten under this one's."""
    folder = tmp_path / "user"
    folder.mkdir()
    data = _reencoded(ORTHANT)
    (folder / "o.json").write_bytes(data)
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "a"))
    _fresh()
    first = folder_claims(folder)
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "b"))
    (tmp_path / "b").mkdir(mode=0o700)
    cache.store("0" * 64, {"code": 2, "kind": "", "claim": None, "pointer": "", "reason": "x", "variant": None})  # b's own secret
    assert (tmp_path / "a" / "verdicts" / cache.SECRET).read_bytes() != (tmp_path / "b" / "verdicts" / cache.SECRET).read_bytes()
    shutil.copy(_entry_path(tmp_path / "a", data), _entry_path(tmp_path / "b", data))
    calls = spy_checks(monkeypatch)
    _fresh()
    assert folder_claims(folder) == first and len(calls) == 1
    calls.clear()
    _fresh()
    assert folder_claims(folder) == first and calls == []  # rewritten under b's key: believed now


def _own_by_another(path: Path, monkeypatch) -> None:
    """``path`` owned by another user: for real as root, else as the cache sees it (the
    cache's idea of the current user moved)."""
    if os.geteuid() == 0:
        os.chown(path, OTHER_UID, OTHER_UID, follow_symlinks=False)
    else:
        real = os.stat(path).st_uid
        monkeypatch.setattr(cache, "user", lambda: real + 1)


@pytest.mark.parametrize("how", ["group-writable", "world-writable", "another-user", "symlink-base", "symlink-verdicts", "verdicts-a-file"])
def test_an_untrusted_cache_folder_is_not_used(tmp_path, monkeypatch, capsys, how):
    """One warning line naming the cache folder, then the file is checked and nothing is
    read from or written into the folder."""
    base = tmp_path / "cache"
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    if how == "symlink-base":
        base.symlink_to(real)
        target = real / "verdicts"
    else:
        base.mkdir(mode=0o700)
        target = base / "verdicts"
        if how == "symlink-verdicts":
            (real / "verdicts").mkdir(mode=0o700)
            target.symlink_to(real / "verdicts")
            target = real / "verdicts"
        elif how == "verdicts-a-file":
            target.write_text("")
        else:
            target.mkdir(mode=0o700)
            if how == "another-user":
                _own_by_another(target, monkeypatch)
            else:
                os.chmod(target, 0o770 if how == "group-writable" else 0o777)
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(base))
    folder = tmp_path / "user"
    folder.mkdir()
    data = _reencoded(ORTHANT)
    (folder / "o.json").write_bytes(data)
    before = sorted(p.name for p in real.rglob("*")) + sorted(p.name for p in base.rglob("*") if not base.is_symlink())
    calls = spy_checks(monkeypatch)
    for _ in range(2):
        _fresh()
        capsys.readouterr()
        assert len(folder_claims(folder)) == 1
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and "verdict cache is not used" in err[0] and str(base) in err[0], err
    assert len(calls) == 2  # never cached
    assert sorted(p.name for p in real.rglob("*")) + sorted(p.name for p in base.rglob("*") if not base.is_symlink()) == before


def _cached(tmp_path, monkeypatch) -> tuple[Path, bytes, Path]:
    """A trusted cache holding the genuine entry of one user file: (folder, bytes, entry)."""
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "user"
    folder.mkdir()
    data = _reencoded(ORTHANT)
    (folder / "o.json").write_bytes(data)
    _fresh()
    assert len(folder_claims(folder)) == 1
    entry = _entry_path(tmp_path / "cache", data)
    assert cache.load(entry.stem) is not None
    return folder, data, entry


@pytest.mark.parametrize("how", ["symlink", "group-writable", "another-user", "too-large"])
def test_an_untrusted_entry_is_one_warning_and_checked_again(tmp_path, monkeypatch, capsys, how):
    """The genuine entry (MAC and all) behind a symbolic link, writable by others, another
    user's or over the size cap: not read, one warning naming it, the file checked again."""
    folder, data, entry = _cached(tmp_path, monkeypatch)
    if how == "symlink":
        moved = tmp_path / "moved.json"
        entry.rename(moved)
        entry.symlink_to(moved)
    elif how == "group-writable":
        os.chmod(entry, 0o620)
    elif how == "another-user":
        if os.geteuid() != 0:
            pytest.skip("needs root to give a file to another user (the folder case covers the non-root run)")
        os.chown(entry, OTHER_UID, OTHER_UID)
    else:
        with open(entry, "ab") as fh:
            fh.truncate(cache.MAX_ENTRY_BYTES + 1)
    calls = spy_checks(monkeypatch)
    _fresh()
    capsys.readouterr()
    assert len(folder_claims(folder)) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(calls) == 1
    assert len(err) == 1 and entry.name in err[0] and "checking without it" in err[0], err


def test_a_fifo_at_an_entry_never_blocks(tmp_path, monkeypatch, capsys):
    folder, data, entry = _cached(tmp_path, monkeypatch)
    entry.unlink()
    os.mkfifo(entry)
    found: list = []
    worker = threading.Thread(target=lambda: found.append(cache.load(entry.stem)), daemon=True)
    worker.start()
    worker.join(10)
    blocked = worker.is_alive()
    if blocked:  # release the reader (a writer that closes at once)
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK))
    assert not blocked, "the cache blocked on a FIFO"
    assert found == [None] and "FIFO" in capsys.readouterr().err


def test_a_readable_secret_is_refused(tmp_path, monkeypatch, capsys):
    folder, data, entry = _cached(tmp_path, monkeypatch)
    os.chmod(entry.parent / cache.SECRET, 0o644)
    calls = spy_checks(monkeypatch)
    _fresh()
    capsys.readouterr()
    assert len(folder_claims(folder)) == 1 and len(calls) == 1
    assert "key file is readable by group or others" in capsys.readouterr().err


def test_a_verdict_on_other_files_is_decided_again_when_they_change(tmp_path, monkeypatch, capsys):
    """A rank extension naming its base by sha256 alone (no name hint: only the folder is
    searched): rejected while the base is missing, accepted once the base is beside it, in
    the same process and in the next one (the rejection was neither memoised nor cached)."""
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "user"
    folder.mkdir()
    ext = json.loads((CERTS / "extension-causal-m08-n4-r4.json").read_text())
    base_name = ext["base"].pop("name")
    (folder / "ext.json").write_text(json.dumps(ext))
    _fresh()
    capsys.readouterr()
    assert folder_claims(folder) == ()
    assert "base refutation is missing" in capsys.readouterr().err
    shutil.copy(CERTS / base_name, folder / base_name)  # a byte copy of the shipped base
    cache.WARNED.clear()
    (found,) = folder_claims(folder)  # same process, memo kept
    assert (found.kind, found.side, found.value) == ("rank-extension", "lower", 5)
    (folder / base_name).unlink()
    _fresh()
    assert folder_claims(folder) == ()  # and missing again
    shutil.copy(CERTS / base_name, folder / base_name)
    _fresh()
    assert len(folder_claims(folder)) == 1


def test_every_kind_that_looks_for_other_files_is_never_cached():
    """The kinds whose rule is handed the files it names by sha256 (checker/rules.NAMING: the
    service of checker/bases.py over the search of checker/search.py) are exactly those the
    cache never keeps."""
    from kernelbounds.checker import rules

    assert rules.NAMING and set(rules.NAMING) == set(cache.NAMING_KINDS) and all(cache.depends_on_other_files(k) for k in rules.NAMING)
    assert not any(cache.depends_on_other_files(k) for k in rules.REGISTRY)
