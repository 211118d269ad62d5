"""A user's certificate folder is read through the checker's bounded, non-blocking reader,
checked once (shipped copies not at all, verdicts cached on disk), and every kind is handled:
hostile entries cost one warning each and never change the answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import folder_claims, spy_checks

from kernelbounds import checker
from kernelbounds.hub import cache, folders

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
INDEX = json.loads((CERTS / "INDEX").read_text())["certificates"]


def _smallest_of_each_kind() -> list[str]:
    best: dict[str, tuple[int, str]] = {}
    for e in INDEX:
        size = (CERTS / e["name"]).stat().st_size
        if e["kind"] not in best or size < best[e["kind"]][0]:
            best[e["kind"]] = (size, e["name"])
    return sorted(name for _, name in best.values())


def _reformatted(name: str) -> bytes:
    """The same document with other whitespace: other bytes (not in the shipped index), same verdict."""
    return json.dumps(json.loads((CERTS / name).read_text()), separators=(",", ":")).encode()


def _run(args, folder, cache_dir):
    """The CLI in a child; its answer, warnings and peak RSS in bytes (the front end's, which
    reads the folder; each check runs in a guarded child bounded by the checker's memory_limit)."""
    code = ("import sys\nfrom kernelbounds.cli import main\nrc = main(sys.argv[1:])\n"
            "peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
            "print('PEAK', peak * 1024, file=sys.stderr)\nsys.exit(rc)")  # VmHWM: this program's own peak (ru_maxrss keeps the forking parent's across exec)
    env = dict(os.environ, KERNELBOUNDS_CACHE=str(cache_dir))
    env.pop("KERNELBOUNDS_CERTIFICATES", None)
    if folder is not None:
        env["KERNELBOUNDS_CERTIFICATES"] = str(folder)
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)
    lines = r.stderr.splitlines()
    peak = int(next(line for line in lines if line.startswith("PEAK ")).split()[1])
    return r.returncode, r.stdout, [line for line in lines if not line.startswith("PEAK ")], peak


def test_a_hostile_folder_answers_as_without_it_with_one_warning_per_bad_file(tmp_path):
    """A FIFO named a.json (never opened for a blocking read), a link to /dev/zero and a
    4 GiB sparse file are refused by the checker's reader, each in one warning line; a
    byte copy of the shipped family-minimum file and a re-encoded copy of the smallest file
    of every shipped kind are accepted; the answers are those without the folder."""
    folder = tmp_path / "user"
    folder.mkdir()
    os.mkfifo(folder / "a.json")
    os.symlink("/dev/zero", folder / "zero.json")
    with open(folder / "big.json", "wb") as fh:
        fh.truncate(4 * 2**30)
    (folder / "minimality-nonnegative-n3.json").write_bytes((CERTS / "minimality-nonnegative-n3.json").read_bytes())
    kinds = _smallest_of_each_kind()
    for name in kinds:
        (folder / f"re-{name}").write_bytes(_reformatted(name))
    bad = {"a.json": "FIFO", "zero.json": "device", "big.json": "max_file_bytes"}
    for args in (["bound", "--m", "6", "--n", "3", "--json"], ["upper", "--m", "5", "--n", "4", "--json"], ["table", "--m", "4..6", "--n", "3..4", "--json"]):
        code, out, warnings, peak = _run(args, folder, tmp_path / "cache")
        code0, out0, warnings0, _ = _run(args, None, tmp_path / "cache0")
        assert code == code0 == 0 and warnings0 == [], warnings
        assert out == out0, args
        assert len(warnings) == len(bad), "\n".join(warnings)
        for name, why in bad.items():
            line = [w for w in warnings if str(folder / name) in w]
            assert len(line) == 1 and why in line[0] and line[0].startswith("kernelbounds: warning: ignoring"), warnings
        assert peak < 200 * 2**20, f"peak RSS {peak / 2**20:.0f} MiB"


def _clear_memo():
    folders._MEMO.clear()


def test_verdicts_are_cached_on_disk_and_shipped_copies_are_not_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "user"
    folder.mkdir()
    quick = ("orthant", "rank-refutation", "rank-one-infeasible")  # kinds checked in milliseconds
    names = sorted((e["name"] for e in INDEX if e["kind"] in quick), key=lambda n: ((CERTS / n).stat().st_size, n))[:20]
    for name in names:
        (folder / f"re-{name}").write_bytes(_reformatted(name))
    for name in _smallest_of_each_kind():  # byte copies: their sha256 is in the shipped index
        (folder / name).write_bytes((CERTS / name).read_bytes())
    calls = spy_checks(monkeypatch)
    _clear_memo()
    first = folder_claims(folder)
    assert sorted(Path(p).name for p in calls) == sorted(f"re-{name}" for name in names)  # only the re-encoded files
    assert len(list((tmp_path / "cache" / "verdicts").glob("*.json"))) == len(set(_reformatted(n) for n in names))
    calls.clear()
    _clear_memo()
    again = folder_claims(folder)
    assert calls == [] and again == first  # the second run checks nothing


def test_corrupt_cache_entries_are_ignored_and_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "user"
    folder.mkdir()
    names = _smallest_of_each_kind()
    for name in names:
        (folder / f"re-{name}").write_bytes(_reformatted(name))
    _clear_memo()
    first = folder_claims(folder)
    entries = sorted((tmp_path / "cache" / "verdicts").glob("*.json"))
    kinds = {e["name"]: e["kind"] for e in INDEX}
    assert len(entries) == sum(not cache.depends_on_other_files(kinds[name]) for name in names)  # a rank extension's verdict is never kept
    garbage = [b"", b"{", b"[]", json.dumps({"format": cache.FORMAT, "key": "0" * 64, "code": 0, "kind": "x", "pointer": "", "reason": "", "claim": None}).encode(), b"\xff" * 10]
    for i, entry in enumerate(entries):
        entry.write_bytes(garbage[i % len(garbage)])
    calls = spy_checks(monkeypatch)
    _clear_memo()
    assert folder_claims(folder) == first
    assert len(calls) == len(names)  # every corrupt entry ignored (and the uncached extension): checked again
    assert all(cache.load(e.stem) is not None for e in entries)  # and rewritten whole


def test_the_cache_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_CACHE", "off")
    assert cache.directory() is None
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path))
    assert cache.directory() == tmp_path / "verdicts"
    monkeypatch.delenv("KERNELBOUNDS_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.directory() == tmp_path / "xdg" / "kernelbounds" / "verdicts"


def test_the_key_depends_on_the_bytes_and_the_limits():
    a, b = "a" * 64, "b" * 64
    limits = checker.Limits()
    assert cache.key(a, limits) == cache.key(a, checker.Limits())
    assert cache.key(a, limits) != cache.key(b, limits)
    assert cache.key(a, limits) != cache.key(a, limits.with_overrides(time_limit=61))


@pytest.mark.parametrize("name", ["esc\x1b[2J.json", "new\nline.json"])
def test_a_rejected_file_with_a_hostile_name_is_one_escaped_line(tmp_path, name, capsys):
    folder = tmp_path / "user"
    folder.mkdir()
    (folder / name).write_text("{not json")
    cache.WARNED.clear()
    _clear_memo()
    assert folder_claims(folder) == ()
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "\x1b" not in err and "rejects it (malformed" in err, err


def test_a_cached_claim_of_the_wrong_shape_is_checked_again(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "user"
    folder.mkdir()
    (folder / "orthant.json").write_bytes(_reformatted("orthant-causal-m12-n3.json"))
    _clear_memo()
    first = folder_claims(folder)
    (entry,) = (tmp_path / "cache" / "verdicts").glob("*.json")
    record = json.loads(entry.read_text())
    record["claim"] = dict(record["claim"], value="many")
    entry.write_text(json.dumps(record))
    calls = spy_checks(monkeypatch)
    _clear_memo()
    assert folder_claims(folder) == first and len(calls) == 1
