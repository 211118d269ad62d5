"""A hostile campaign against the hub's trust boundaries, built from the docs alone.

Targets (docs/cli.md, docs/index-format.md "User folders" and "COMPUTED", docs/soundness.md
"The verdict cache"):
  1. the verdict cache of user folders (`bound --certificates DIR`, `KERNELBOUNDS_CACHE`);
  2. INDEX and COMPUTED of a certificate folder (`certificates --check/--verify/--reindex`)
     and of the shipped set (a copy of the package whose certificates/ is corrupted: the hub
     must raise StaleIndex, exit 4);
  3. the writers (`bound -o`, `--base-out`, `--upper-output`, `table --plot`, `evaluate -o`);
  4. signals (SIGINT, SIGTERM) to long commands: exit 130/143 within 2 s, one line, no
     process of the command's group left;
  5. big numbers in arguments and files, and `evaluate --max-seconds`.

Every case runs the CLI as a subprocess (`python -m kernelbounds`) in its own scratch folder
under /tmp, one process at a time, and returns an `Outcome`: the exact command, what the docs
promise and what happened.  `python -m lab.hostile_inputs [--only SUBSTRING] [--json]` runs
the campaign and prints one line per case and the counts per target;
tests/lab/test_hostile_inputs.py (slow) asserts every case.

The forged cache entries are authenticated the way the cache's own entries are (HMAC-SHA256
over the entry's fields as compact sorted JSON, learnt from an entry on disk): the control
case `t1_control_own_secret` shows that such a forgery is believed when it sits in the
user's own cache under the user's own key (the documented trust boundary), so the other
target-1 cases, which must not believe it, test something real.

An unprivileged run (`setpriv --reuid=65534`) is not possible on this machine: the venv's
Python lives under /root (mode 0700).  Ownership attacks therefore run as root against
files and folders chowned to nobody (uid 65534), which is the attacker the cache's
threat model names ("other local users").
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lab import REPO

NOBODY = 65534
SHIPPED = REPO / "certificates"
BIG = "7" * 5000  # a decimal number beyond Python's 4300-digit int/str limit


@dataclass
class Run:
    cmd: str
    rc: int | None
    out: str
    err: str
    seconds: float


@dataclass
class Outcome:
    cmd: str
    expected: str
    actual: str
    ok: bool


@dataclass
class Case:
    name: str
    target: int
    body: Callable[[Path], Outcome]
    xfail: str | None = None
    strict: bool = True  # False for a race, which a run may miss


CASES: list[Case] = []


def case(target: int, xfail: str | None = None, strict: bool = True):
    def register(fn):
        CASES.append(Case(fn.__name__, target, fn, xfail, strict))
        return fn
    return register


# --------------------------------------------------------------------------- running

def _env(scratch: Path, pythonpath: Path | None = None, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KERNELBOUNDS_")}
    env["PYTHONPATH"] = str(pythonpath or REPO)
    env["KERNELBOUNDS_CACHE"] = str(scratch / "defaultcache")
    env["MPLBACKEND"] = "Agg"
    env.update(extra)
    return env


def kb(scratch: Path, *args: str, env: dict | None = None, timeout: float = 120, cwd: Path | None = None,
       pythonpath: Path | None = None, **extra: str) -> Run:
    """Run `python -m kernelbounds ARGS` in scratch; a run past timeout is killed (rc None)."""
    cmd = [sys.executable, "-m", "kernelbounds", *args]
    shown = " ".join(_short(a) for a in ["kernelbounds", *args])
    if extra:
        shown = " ".join(f"{k}={_short(v)}" for k, v in extra.items()) + " " + shown
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd or scratch, env=env or _env(scratch, pythonpath, **extra),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rc = None
    return Run(shown, rc, out.decode(errors="replace"), err.decode(errors="replace"), time.monotonic() - start)


def _short(text: str) -> str:
    return text if len(text) <= 80 else f"<{len(text)} chars: {text[:20]}...>"


def sane(r: Run) -> list[str]:
    """What every run must satisfy: no traceback, ended, stderr lines short and escaped."""
    bad = []
    if r.rc is None:
        bad.append("did not end (killed at the timeout)")
    if "Traceback" in r.out + r.err:
        bad.append("traceback")
    for line in r.err.splitlines():
        if "\x1b" in line:
            bad.append("raw ESC on stderr")
        if len(line) > 20000:
            bad.append(f"a stderr line of {len(line)} characters")
    return bad


def verdict(r: Run, expected: str, codes: set[int], *, need: tuple[str, ...] = (), forbid: tuple[str, ...] = (),
            err_lines: int | None = None, extra: list[str] | None = None) -> Outcome:
    """The outcome of one run: exit code in codes, every `need` substring in stdout+stderr,
    no `forbid` substring, at most err_lines lines on stderr, and the extra problems found."""
    problems = sane(r) + list(extra or [])
    if r.rc not in codes:
        problems.append(f"exit {r.rc}")
    text = r.out + r.err
    problems += [f"missing {n!r}" for n in need if n not in text]
    problems += [f"printed {f!r}" for f in forbid if f in text]
    if err_lines is not None and len(r.err.splitlines()) > err_lines:
        problems.append(f"{len(r.err.splitlines())} stderr lines")
    first_err = r.err.strip().splitlines()[-1][:300] if r.err.strip() else ""
    first_out = r.out.strip().splitlines()[0][:200] if r.out.strip() else ""
    actual = f"exit {r.rc} in {r.seconds:.1f} s; stdout: {first_out!r}; stderr: {first_err!r}"
    if problems:
        actual += "; PROBLEMS: " + ", ".join(problems)
    return Outcome(r.cmd, expected, actual, not problems)


def listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


# --------------------------------------------------------------------------- fixtures

_MEMO: dict[str, bytes] = {}


def valid_lb9(scratch: Path) -> bytes:
    """A valid user lower-bound file the shipped set does not hold: r*(10, 9) >= 25 (codes)."""
    if "lb9" not in _MEMO:
        out = scratch / "lb9-build.json"
        r = kb(scratch, "bound", "--m", "10", "--n", "9", "-o", str(out))
        assert r.rc == 0, r
        _MEMO["lb9"] = out.read_bytes()
        out.unlink()
    return _MEMO["lb9"]


def forged_lb9(scratch: Path) -> bytes:
    """The same file claiming 26: the checker rejects it."""
    doc = json.loads(valid_lb9(scratch))
    doc["claims"]["bound"] = 26
    return (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode()


FORGED_CLAIM = {"kernels": ["nonnegative"], "m": 10, "n": 9, "side": "lower", "value": 26,
                "variants": ["position-independent"]}
TRUE_LINE = "m = 10, n = 9 (position-independent): 25 <= r*"
FALSE_LINE = "26 <= r*"


def mac(secret: bytes, entry: dict) -> str:
    body = {k: v for k, v in entry.items() if k != "mac"}
    return hmac.new(secret, json.dumps(body, sort_keys=True, separators=(",", ":")).encode(), hashlib.sha256).hexdigest()


def forged_setup(scratch: Path) -> tuple[Path, Path, dict]:
    """A user folder with the forged file, a cache that has seen it once (its key learnt),
    and the forged entry (code 0, claim 26) for that key, without a MAC yet."""
    folder = scratch / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(scratch))
    cache = scratch / "cache"
    r = kb(scratch, "bound", "--m", "10", "--n", "9", "--certificates", str(folder), KERNELBOUNDS_CACHE=str(cache))
    assert r.rc == 0 and TRUE_LINE in r.out, r
    entries = [p for p in (cache / "verdicts").iterdir() if p.name != "secret"]
    assert len(entries) == 1, entries
    old = json.loads(entries[0].read_text())
    assert old["code"] != 0, old
    forged = dict(old, code=0, claim=FORGED_CLAIM, pointer="", reason="", kind="lower-bound", variant="position-independent")
    return folder, cache, forged


def write_entry(cache: Path, entry: dict, secret: bytes | None = None) -> Path:
    secret = secret if secret is not None else (cache / "verdicts" / "secret").read_bytes()
    entry = dict(entry, mac=mac(secret, entry))
    path = cache / "verdicts" / f"{entry['key']}.json"
    path.write_text(json.dumps(entry, sort_keys=True))
    os.chmod(path, 0o600)
    return path


def ask(scratch: Path, folder: Path, cache: Path | str, *more: str) -> Run:
    return kb(scratch, "bound", "--m", "10", "--n", "9", "--certificates", str(folder), *more,
              KERNELBOUNDS_CACHE=str(cache))


def never_26(r: Run, expected: str, **kw) -> Outcome:
    return verdict(r, expected, {0}, need=(TRUE_LINE, *kw.pop("need", ())), forbid=(FALSE_LINE,), **kw)


def chown_tree(path: Path, uid: int = NOBODY) -> None:
    for root, _dirs, files in os.walk(path):
        os.chown(root, uid, uid)
        for f in files:
            os.chown(os.path.join(root, f), uid, uid, follow_symlinks=False)


# --------------------------------------------------------------------------- target 1

@case(1)
def t1_forged_file_no_cache_entry(s: Path) -> Outcome:
    folder = s / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(s))
    r = ask(s, folder, s / "cache")
    return never_26(r, "exit 0, 25 <= r*, one warning 'the checker rejects it'", need=("the checker rejects it",), err_lines=1)


@case(1)
def t1_control_own_secret(s: Path) -> Outcome:
    """Control: a forgery MAC'd with the user's own key in the user's own cache is believed
    (documented trust boundary); proves the forged entries below are well-formed."""
    folder, cache, forged = forged_setup(s)
    write_entry(cache, forged)
    r = ask(s, folder, cache)
    return verdict(r, "exit 0 and 26 (believed: the user's own key is trusted, docs/soundness.md)", {0}, need=(FALSE_LINE,))


@case(1)
def t1_entry_edited_stale_mac(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    path = cache / "verdicts" / f"{forged['key']}.json"
    old = json.loads(path.read_text())
    path.write_text(json.dumps(dict(forged, mac=old["mac"]), sort_keys=True))
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25 (edited entry fails its MAC, file re-checked)")


@case(1)
def t1_entry_copied_from_other_cache(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    other = s / "other"
    kb(s, "bound", "--m", "10", "--n", "9", "--certificates", str(folder), KERNELBOUNDS_CACHE=str(other))
    src = write_entry(other, forged)  # valid under the other cache's key
    shutil.copy(src, cache / "verdicts" / src.name)
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25 (an entry from another cache never verifies)")


def _refused(s: Path, mutate, expected: str) -> Outcome:
    """The forged entry, MAC'd with the cache's own key, after mutate(cache, entry) makes the
    cache or the entry untrustworthy: never believed, one warning naming a node of the cache."""
    folder, cache, forged = forged_setup(s)
    mutate(cache, write_entry(cache, forged))
    return never_26(ask(s, folder, cache), expected, need=(f"ignoring {cache}",))


@case(1)
def t1_foreign_owned_cache(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: chown_tree(cache), "exit 0, 25, warning 'ignoring CACHE' (folder of another user)")


@case(1)
def t1_foreign_owned_verdicts_only(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: chown_tree(cache / "verdicts"), "exit 0, 25, warning (verdicts/ of another user)")


@case(1)
def t1_world_writable_cache(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: os.chmod(cache, 0o777), "exit 0, 25, warning (others can write the cache folder)")


@case(1)
def t1_group_writable_verdicts(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: os.chmod(cache / "verdicts", 0o770), "exit 0, 25, warning (group can write verdicts/)")


@case(1)
def t1_sticky_world_writable_verdicts(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: os.chmod(cache / "verdicts", 0o1777), "exit 0, 25, warning (others can write verdicts/, sticky or not)")


@case(1)
def t1_group_writable_entry(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: os.chmod(entry, 0o620), "exit 0, 25, warning (entry writable by group)")


@case(1)
def t1_foreign_owned_entry(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: os.chown(entry, NOBODY, NOBODY), "exit 0, 25, warning (entry of another user)")


def _symlinked(s: Path, which: Callable[[Path, Path], Path], what: str) -> Outcome:
    """A forged cache where one path (``which(cache, entry)``) is moved away and replaced by
    a symbolic link to where it went: the hub must ignore the cache with a warning."""
    folder, cache, forged = forged_setup(s)
    path = which(cache, write_entry(cache, forged))
    moved = s / f"moved-{path.name}"
    os.replace(path, moved)
    os.symlink(moved, path)
    r = ask(s, folder, cache)
    return never_26(r, f"exit 0, 25, warning ({what} is a symbolic link)", need=(f"ignoring {cache}",))


@case(1)
def t1_symlinked_entry(s: Path) -> Outcome:
    return _symlinked(s, lambda cache, entry: entry, "entry")


@case(1)
def t1_symlinked_verdicts(s: Path) -> Outcome:
    return _symlinked(s, lambda cache, entry: cache / "verdicts", "verdicts/")


@case(1)
def t1_symlinked_cache_root(s: Path) -> Outcome:
    return _symlinked(s, lambda cache, entry: cache, "cache folder")


@case(1)
def t1_secret_readable_by_others(s: Path) -> Outcome:
    return _refused(s, lambda cache, entry: os.chmod(cache / "verdicts" / "secret", 0o644), "exit 0, 25, warning (secret readable by others is refused)")


@case(1)
def t1_secret_foreign_owned(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    attacker_secret = b"A" * 32
    sec = cache / "verdicts" / "secret"
    sec.write_bytes(attacker_secret)
    os.chown(sec, NOBODY, NOBODY)
    write_entry(cache, forged, attacker_secret)
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25 (secret of another user refused)", need=(f"ignoring {cache}",))


@case(1)
def t1_secret_symlink_to_attacker_key(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    attacker_secret = b"B" * 32
    evil = s / "evilsecret"
    evil.write_bytes(attacker_secret)
    os.chmod(evil, 0o600)
    os.chown(evil, NOBODY, NOBODY)
    sec = cache / "verdicts" / "secret"
    sec.unlink()
    os.symlink(evil, sec)
    write_entry(cache, forged, attacker_secret)
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25, warning (secret is a symbolic link)", need=(f"ignoring {cache}",))


@case(1)
def t1_secret_fifo(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    sec = cache / "verdicts" / "secret"
    sec.unlink()
    os.mkfifo(sec, 0o600)
    r = ask(s, folder, cache)
    out = never_26(r, "exit 0 within 20 s, 25, warning (a FIFO as the key never blocks)", need=(f"ignoring {cache}",))
    if r.seconds > 20:
        out.ok, out.actual = False, out.actual + f"; took {r.seconds:.0f} s"
    return out


@case(1)
def t1_secret_short(s: Path) -> Outcome:
    """A key of 0 bytes: an empty HMAC key would let anybody forge every entry."""
    folder, cache, forged = forged_setup(s)
    sec = cache / "verdicts" / "secret"
    sec.write_bytes(b"")
    write_entry(cache, forged, b"")
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25, warning (an empty key is not a key)", need=(f"ignoring {cache}",))


@case(1)
def t1_fifo_entry(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    path = cache / "verdicts" / f"{forged['key']}.json"
    path.unlink()
    os.mkfifo(path, 0o600)
    r = ask(s, folder, cache)
    out = never_26(r, "exit 0 within 20 s, 25, warning (a FIFO entry never blocks)", need=(f"ignoring {cache}",))
    if r.seconds > 20:
        out.ok = False
    return out


@case(1)
def t1_huge_sparse_entry(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    path = write_entry(cache, forged)
    os.truncate(path, 3 << 30)
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25, warning (entry over 1 MiB)", need=(f"ignoring {cache}",))


@case(1)
def t1_entry_is_folder(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    path = cache / "verdicts" / f"{forged['key']}.json"
    path.unlink()
    path.mkdir(mode=0o700)
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25, warning (a folder at an entry's place)", need=(f"ignoring {cache}",))


@case(1)
def t1_entry_padded_to_1mib(s: Path) -> Outcome:
    """A well-formed entry of just under 1 MiB (whitespace padding) with a wrong MAC."""
    folder, cache, forged = forged_setup(s)
    path = cache / "verdicts" / f"{forged['key']}.json"
    path.write_text(json.dumps(dict(forged, mac="0" * 64)) + " " * ((1 << 20) - 600))
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25")


@case(1)
def t1_entry_wrong_json_types(s: Path) -> Outcome:
    folder, cache, forged = forged_setup(s)
    secret = (cache / "verdicts" / "secret").read_bytes()
    bad = dict(forged, code="0", claim={"value": [26]})
    bad["mac"] = mac(secret, bad)
    (cache / "verdicts" / f"{forged['key']}.json").write_text(json.dumps(bad))
    r = ask(s, folder, cache)
    return never_26(r, "exit 0, 25 (a claim of the wrong shape counts as corrupt)")


@case(1)
def t1_cache_env_is_file(s: Path) -> Outcome:
    folder = s / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(s))
    f = s / "plainfile"
    f.write_text("x")
    r = ask(s, folder, f)
    return never_26(r, "exit 0, 25, one warning for the cache, one for the file", err_lines=2, need=(f"ignoring {f}",))


@case(1)
def t1_cache_env_dev_null(s: Path) -> Outcome:
    folder = s / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(s))
    before = listing(Path("/dev"))
    r = ask(s, folder, "/dev/null")
    extra = [] if listing(Path("/dev")) == before else ["wrote into /dev"]
    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        extra.append("/dev/null is no longer a device")
    return never_26(r, "exit 0, 25, nothing created in /dev", extra=extra)


@case(1)
def t1_cache_env_control_characters(s: Path) -> Outcome:
    folder = s / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(s))
    weird = s / "c\x1b[31mred\nnext"
    weird.mkdir(mode=0o777)
    os.chmod(weird, 0o777)
    r = ask(s, folder, weird)
    return never_26(r, "exit 0, 25, the warning naming the cache escaped on one line", need=("\\x1b",), err_lines=2)


@case(1)
def t1_cache_env_too_long(s: Path) -> Outcome:
    folder = s / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(s))
    r = ask(s, folder, str(s / ("x" * 5000)))
    return never_26(r, "exit 0 (runs uncached, one warning) or the documented exit 2; never a traceback")


@case(1)
def t1_user_folder_special_files(s: Path) -> Outcome:
    folder = s / "dir"
    folder.mkdir()
    os.mkfifo(folder / "fifo.json")
    os.symlink("/dev/zero", folder / "zero.json")
    with open(folder / "sparse.json", "wb") as f:
        f.truncate(3 << 30)
    (folder / "sub.json").mkdir()
    os.symlink(folder / "nowhere", folder / "dangling.json")
    (folder / "mine.json").write_bytes(forged_lb9(s))
    r = ask(s, folder, s / "cache")
    out = never_26(r, "exit 0 within 30 s, 25, one warning per bad entry (6 at most), no hang", err_lines=6)
    if r.seconds > 30:
        out.ok = False
    return out


@case(1)
def t1_user_folder_is_foreign_and_writable(s: Path) -> Outcome:
    """A world-writable /tmp folder of another user: its files are checked, never trusted."""
    folder = s / "dir"
    folder.mkdir()
    (folder / "mine.json").write_bytes(forged_lb9(s))
    chown_tree(folder)
    os.chmod(folder, 0o777)
    r = ask(s, folder, s / "cache")
    return never_26(r, "exit 0, 25")


def _extension_folder(s: Path) -> tuple[Path, Path]:
    """A user rank extension whose base is found only beside it (hinted name mybase.json)."""
    folder = s / "dir"
    folder.mkdir()
    ext = json.loads((SHIPPED / "extension-causal-m10-n3-r5.json").read_bytes())
    ext["base"]["name"] = "mybase.json"
    (folder / "ext.json").write_text(json.dumps(ext, indent=2, sort_keys=True) + "\n")
    base = folder / "mybase.json"
    shutil.copy(SHIPPED / "refutation-causal-m06-n3-r3.json", base)
    return folder, base


@case(1)
def t1_extension_base_removed(s: Path) -> Outcome:
    folder, base = _extension_folder(s)
    cache = s / "cache"
    first = kb(s, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), KERNELBOUNDS_CACHE=str(cache))
    cached = [p for p in (cache / "verdicts").iterdir() if p.name != "secret"] if (cache / "verdicts").exists() else []
    base.unlink()
    second = kb(s, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), KERNELBOUNDS_CACHE=str(cache))
    extra = []
    if "rejects" in first.err:
        extra.append(f"first run rejected the extension: {first.err.strip()!r}")
    if "ext.json: the checker rejects it" not in second.err:
        extra.append("second run (base gone) did not reject ext.json")
    kinds = [json.loads(p.read_text()).get("kind") for p in cached]
    if "rank-extension" in kinds:
        extra.append("a rank-extension verdict was cached on disk")
    return verdict(second, "run 1 accepts ext.json (base beside it), no rank-extension entry on disk; run 2 (base deleted) warns 'ext.json: the checker rejects it'", {0}, extra=extra)


@case(1)
def t1_extension_base_missing_not_cached(s: Path) -> Outcome:
    """A rank extension whose base is missing: the rejection is never cached (it depends on other files)."""
    folder, base = _extension_folder(s)
    base.unlink()
    cache = s / "cache"
    first = kb(s, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), KERNELBOUNDS_CACHE=str(cache))
    v = cache / "verdicts"
    entries = [p for p in v.iterdir() if p.name != "secret"] if v.exists() else []
    r = kb(s, "bound", "--m", "10", "--n", "3", "--certificates", str(folder), KERNELBOUNDS_CACHE=str(cache))
    extra = [] if not entries else [f"{len(entries)} entries cached for a rank extension"]
    return verdict(r, "no entry cached for a rank extension whose base is missing; warning each run", {0},
                   need=("ext.json: the checker rejects it",), extra=extra + ([] if "rejects" in first.err else ["first run did not reject"]))


@case(1)
def t1_race_swap_file_during_o_copy(s: Path) -> Outcome:
    """The user file flips between the valid and the forged bytes while `bound -o` runs:
    no run may print 26, and a copied file must be the valid bytes."""
    folder = s / "dir"
    folder.mkdir()
    good, bad = valid_lb9(s), forged_lb9(s)
    target = folder / "mine.json"
    target.write_bytes(good)
    stop = threading.Event()

    def flip():
        i = 0
        while not stop.is_set():
            tmp = folder / ".flip"
            tmp.write_bytes(bad if i % 2 else good)
            os.replace(tmp, target)
            i += 1
            time.sleep(0.002)

    th = threading.Thread(target=flip, daemon=True)
    th.start()
    problems, runs = [], []
    try:
        for i in range(4):
            out = s / f"out{i}.json"
            r = kb(s, "bound", "--m", "10", "--n", "9", "--certificates", str(folder), "-o", str(out),
                   KERNELBOUNDS_CACHE=str(s / "cache"))
            runs.append(r)
            problems += sane(r)
            if FALSE_LINE in r.out:
                problems.append(f"run {i} printed 26")
            if out.exists() and out.read_bytes() == bad:
                problems.append(f"run {i} copied the forged bytes")
            if r.rc not in (0, 2):
                problems.append(f"run {i} exit {r.rc}")
    finally:
        stop.set()
        th.join()
    rcs = [r.rc for r in runs]
    return Outcome(runs[0].cmd + "  (x4, file flipping)", "exit 0 (or 2 if the file changed under -o), never 26, never the forged bytes",
                   f"exits {rcs}" + (f"; PROBLEMS: {problems}" if problems else ""), not problems)


# --------------------------------------------------------------------------- target 2

def small_store(s: Path) -> Path:
    """A certificate folder of 3 small files + the shipped COMPUTED, indexed by --reindex."""
    d = s / "store"
    d.mkdir()
    for name in ("COMPUTED", "construction-rank1-m01-n2.json", "explicit-rank1-m01-n3.json",
                 "lower-position-independent-m32-n3.json"):
        shutil.copy(SHIPPED / name, d / name)
    r = kb(s, "certificates", "--reindex", str(d))
    assert r.rc == 0, r
    return d


def canon(doc) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=True) + "\n"


def edit_json(path: Path, fn) -> None:
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(canon(doc))


def digest(entry: dict) -> str:
    body = {k: v for k, v in entry.items() if k != "digest"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@case(2)
def t2_check_baseline(s: Path) -> Outcome:
    d = small_store(s)
    return verdict(kb(s, "certificates", "--check", str(d), "--jobs", "1"), "exit 0", {0})


def _check_index_edit(s: Path, fn, expected: str, need=()) -> Outcome:
    d = small_store(s)
    edit_json(d / "INDEX", fn)
    r = kb(s, "certificates", "--check", str(d), "--jobs", "1")
    return verdict(r, expected, {1}, need=need)


@case(2)
def t2_index_row_missing(s: Path) -> Outcome:
    return _check_index_edit(s, lambda d: d["certificates"].pop(1), "exit 1 naming explicit-rank1-m01-n3.json as not listed",
                             need=("explicit-rank1-m01-n3.json",))


@case(2)
def t2_index_row_duplicated(s: Path) -> Outcome:
    return _check_index_edit(s, lambda d: d["certificates"].append(d["certificates"][0]), "exit 1")


@case(2)
def t2_index_rows_reordered(s: Path) -> Outcome:
    return _check_index_edit(s, lambda d: d["certificates"].reverse(), "exit 1")


@case(2)
def t2_index_forged_claim_digest_recomputed(s: Path) -> Outcome:
    def forge(d):
        e = d["certificates"][2]
        e["claim"]["value"] += 1
        e["digest"] = digest(e)
    return _check_index_edit(s, forge, "exit 1 (INDEX differs from the checker's verdicts)")


@case(2)
def t2_index_huge_number(s: Path) -> Outcome:
    d = small_store(s)
    text = (d / "INDEX").read_text().replace('"value": 58', '"value": ' + BIG, 1)
    (d / "INDEX").write_text(text)
    r = kb(s, "certificates", "--check", str(d), "--jobs", "1")
    return verdict(r, "exit 1 (or 2), one line per problem, no digit dump", {1, 2})


@case(2)
def t2_index_fifo(s: Path) -> Outcome:
    d = small_store(s)
    (d / "INDEX").unlink()
    os.mkfifo(d / "INDEX")
    r = kb(s, "certificates", "--check", str(d), "--jobs", "1", timeout=30)
    return verdict(r, "exit 1 or 2 at once (never blocks on a FIFO INDEX)", {1, 2})


@case(2)
def t2_index_sparse_huge(s: Path) -> Outcome:
    d = small_store(s)
    os.truncate(d / "INDEX", 3 << 30)
    r = kb(s, "certificates", "--check", str(d), "--jobs", "1", timeout=60)
    return verdict(r, "exit 1 or 2 at once (a 3 GiB INDEX is never read whole)", {1, 2})


@case(2)
def t2_check_cert_fifo_and_sparse(s: Path) -> Outcome:
    d = small_store(s)
    os.mkfifo(d / "fifo.json")
    with open(d / "sparse.json", "wb") as f:
        f.truncate(3 << 30)
    r = kb(s, "certificates", "--check", str(d), "--jobs", "1", timeout=60)
    return verdict(r, "exit 1 naming fifo.json and sparse.json, quickly", {1}, need=("fifo.json", "sparse.json"))


@case(2)
def t2_check_dir_missing(s: Path) -> Outcome:
    return verdict(kb(s, "certificates", "--check", str(s / "nope")), "exit 2, one line", {2}, err_lines=1)


def _verify_computed_edit(s: Path, fn, expected: str, codes: set[int], need=(), raw: str | None = None) -> Outcome:
    d = small_store(s)
    if raw is not None:
        (d / "COMPUTED").write_text(raw)
    else:
        edit_json(d / "COMPUTED", fn)
    r = kb(s, "certificates", "--verify", str(d), "--sample", "1", "--seed", "hostile", "--jobs", "1", timeout=90)
    out = verdict(r, expected, codes, need=need)
    if r.seconds > 30:
        out.ok, out.actual = False, out.actual + "; rebuilt rows before refusing"
    return out


@case(2)
def t2_computed_cell_missing(s: Path) -> Outcome:
    return _verify_computed_edit(s, lambda d: d["cells"].pop(347), "exit 1 at once naming /cells/347", {1}, need=("/cells/347",))


@case(2)
def t2_computed_cell_duplicated(s: Path) -> Outcome:
    return _verify_computed_edit(s, lambda d: d["cells"].insert(10, d["cells"][10]), "exit 1 at once naming /cells/11", {1}, need=("/cells/11",))


@case(2)
def t2_computed_cells_swapped(s: Path) -> Outcome:
    def swap(d):
        d["cells"][5], d["cells"][6] = d["cells"][6], d["cells"][5]
    # the product names the second of the two (it "comes after a later one"); either is a fair pointer
    return _verify_computed_edit(s, swap, "exit 1 at once naming the cell out of order (/cells/6)", {1}, need=("/cells/6",))


@case(2)
def t2_computed_chain_missing(s: Path) -> Outcome:
    return _verify_computed_edit(s, lambda d: d["chains"].pop(), "exit 1 at once naming /chains/383", {1}, need=("/chains/383",))


@case(2)
def t2_computed_bound_over_2m(s: Path) -> Outcome:
    def edit(d):
        for c in d["cells"]:
            if c["codes"]:
                c["codes"]["bound"] = 2 ** c["m"] + 1
                break
    return _verify_computed_edit(s, edit, "exit 1 naming the cell's /codes/bound", {1}, need=("/codes/bound",))


@case(2)
def t2_computed_bound_string(s: Path) -> Outcome:
    def edit(d):
        c = next(c for c in d["cells"] if c["codes"])
        c["codes"]["bound"] = str(c["codes"]["bound"])
    return _verify_computed_edit(s, edit, "exit 1 naming /codes/bound (wrong JSON type)", {1}, need=("/codes/bound",))


@case(2)
def t2_computed_bound_true(s: Path) -> Outcome:
    def edit(d):
        c = next(c for c in d["cells"] if c["codes"])
        c["codes"]["bound"] = True
    return _verify_computed_edit(s, edit, "exit 1 naming /codes/bound (a boolean is not a bound)", {1}, need=("/codes/bound",))


@case(2)
def t2_computed_huge_number(s: Path) -> Outcome:
    d0 = json.loads((SHIPPED / "COMPUTED").read_text())
    text = canon(d0).replace('"bound": 4,', '"bound": ' + BIG + ",", 1)
    return _verify_computed_edit(s, None, "exit 2 at once, one line (a number over 4300 digits)", {2}, raw=text)


@case(2)
def t2_computed_4200_digit_number(s: Path) -> Outcome:
    d0 = json.loads((SHIPPED / "COMPUTED").read_text())
    text = canon(d0).replace('"bound": 4,', '"bound": ' + "9" * 4200 + ",", 1)
    return _verify_computed_edit(s, None, "exit 1 naming /codes/bound, the number shortened", {1}, raw=text, need=("digits",))


@case(2)
def t2_computed_array(s: Path) -> Outcome:
    return _verify_computed_edit(s, None, "exit 2 at once (not an object of its format)", {2}, raw="[1, 2, 3]\n")


@case(2)
def t2_computed_code_file_missing(s: Path) -> Outcome:
    return _verify_computed_edit(s, lambda d: d["code_files"].clear(), "exit 1 naming the missing code file", {1},
                                 need=("lower-position-independent-m32-n3.json",))


@case(2)
def t2_computed_code_file_extra(s: Path) -> Outcome:
    def edit(d):
        d["code_files"]["ghost.json"] = next(iter(d["code_files"].values()))
    return _verify_computed_edit(s, edit, "exit 1 naming /code_files/ghost.json", {1}, need=("ghost.json",))


@case(2)
def t2_computed_fifo(s: Path) -> Outcome:
    d = small_store(s)
    (d / "COMPUTED").unlink()
    os.mkfifo(d / "COMPUTED")
    r = kb(s, "certificates", "--verify", str(d), "--sample", "1", "--seed", "x", "--jobs", "1", timeout=30)
    return verdict(r, "exit 2 at once, one line", {2})


@case(2)
def t2_computed_sparse_huge(s: Path) -> Outcome:
    d = small_store(s)
    os.truncate(d / "COMPUTED", 3 << 30)
    r = kb(s, "certificates", "--verify", str(d), "--sample", "1", "--seed", "x", "--jobs", "1", timeout=60)
    return verdict(r, "exit 2 at once, one line", {2})


@case(2)
def t2_reindex_incomplete_computed_writes_nothing(s: Path) -> Outcome:
    d = small_store(s)
    edit_json(d / "COMPUTED", lambda doc: doc["cells"].pop(3))
    before = {p.name: p.read_bytes() for p in d.iterdir()}
    r = kb(s, "certificates", "--reindex", str(d))
    after = {p.name: p.read_bytes() for p in d.iterdir()}
    extra = [] if before == after else ["the folder changed"]
    return verdict(r, "exit 2, one line naming /cells/3, nothing written", {2}, need=("/cells/3",), extra=extra)


@case(2)
def t2_reindex_computed_fifo(s: Path) -> Outcome:
    d = small_store(s)
    (d / "COMPUTED").unlink()
    os.mkfifo(d / "COMPUTED")
    r = kb(s, "certificates", "--reindex", str(d), timeout=30)
    return verdict(r, "exit 2 at once", {2})


# the shipped set, corrupted in a copy of the package

def package_copy(s: Path) -> Path:
    """A copy of the package whose certificates/ is a real folder we may corrupt."""
    root = s / "pkg"
    shutil.copytree(REPO / "kernelbounds", root / "kernelbounds", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _shipped(s: Path, fn, args: tuple[str, ...], expected: str, codes: set[int], need=(), forbid=(), err_lines=1,
             timeout: float = 60) -> Outcome:
    root = package_copy(s)
    fn(root / "kernelbounds" / "certificates")
    r = kb(s, *args, pythonpath=root, timeout=timeout)
    slow = [f"took {r.seconds:.1f} s"] if "at once" in expected and r.seconds > 5 else []
    return verdict(r, expected, codes, need=need, forbid=forbid, err_lines=err_lines, extra=slow)


def _rewrite_computed_sha(certs: Path) -> None:
    sha = hashlib.sha256((certs / "COMPUTED").read_bytes()).hexdigest()
    edit_json(certs / "INDEX", lambda d: d["computed"].__setitem__("sha256", sha))


@case(2)
def t2_shipped_computed_cell_missing(s: Path) -> Outcome:
    def edit(c):
        edit_json(c / "COMPUTED", lambda d: d["cells"].pop(347))
        _rewrite_computed_sha(c)
    return _shipped(s, edit, ("bound", "--m", "5", "--n", "3"), "exit 4, one line 'COMPUTED is corrupt: at /cells/347'", {4},
                    need=("COMPUTED", "/cells/347"))


@case(2)
def t2_shipped_computed_huge_number(s: Path) -> Outcome:
    def edit(c):
        text = (c / "COMPUTED").read_text().replace('"bound": 4,', '"bound": ' + BIG + ",", 1)
        (c / "COMPUTED").write_text(text)
        _rewrite_computed_sha(c)
    return _shipped(s, edit, ("bound", "--m", "5", "--n", "3"), "exit 4, one line", {4}, need=("COMPUTED",))


@case(2)
def t2_shipped_computed_sha_mismatch(s: Path) -> Outcome:
    def edit(c):
        with open(c / "COMPUTED", "a") as f:
            f.write(" ")
    return _shipped(s, edit, ("bound", "--m", "5", "--n", "3"), "exit 4, one line", {4})


def _fifo_at(name: str):
    """An edit of the shipped folder: the file ``name`` replaced by a FIFO (a read blocks)."""
    def edit(c: Path) -> None:
        (c / name).unlink()
        os.mkfifo(c / name)
    return edit


@case(2)
def t2_shipped_computed_fifo(s: Path) -> Outcome:
    return _shipped(s, _fifo_at("COMPUTED"), ("bound", "--m", "5", "--n", "3"), "exit 4 at once, one line", {4}, timeout=20)


@case(2)
def t2_shipped_index_fifo(s: Path) -> Outcome:
    return _shipped(s, _fifo_at("INDEX"), ("bound", "--m", "5", "--n", "3"), "exit 4 at once, one line", {4}, timeout=20)


@case(2)
def t2_shipped_index_sparse_huge(s: Path) -> Outcome:
    def edit(c):
        os.truncate(c / "INDEX", 3 << 30)
    return _shipped(s, edit, ("bound", "--m", "5", "--n", "3"), "exit 4 at once, one line", {4})


@case(2)
def t2_shipped_index_missing(s: Path) -> Outcome:
    return _shipped(s, lambda c: (c / "INDEX").unlink(), ("bound", "--m", "5", "--n", "3"), "exit 4, one line", {4})


@case(2)
def t2_shipped_index_claim_edited(s: Path) -> Outcome:
    def edit(c):
        def fn(d):
            e = next(e for e in d["certificates"] if e["name"] == "upper-any-m10-n3.json")
            e["claim"]["value"] = 9
        edit_json(c / "INDEX", fn)
    return _shipped(s, edit, ("bound", "--m", "10", "--n", "3"), "exit 4 (digest mismatch), never 'r* <= 9'", {4},
                    forbid=("r* <= 9",))


@case(2)
def t2_shipped_index_row_duplicated(s: Path) -> Outcome:
    def edit(c):
        edit_json(c / "INDEX", lambda d: d["certificates"].insert(0, d["certificates"][0]))
    return _shipped(s, edit, ("bound", "--m", "10", "--n", "3"), "exit 4 (a name listed twice)", {4})


@case(2)
def t2_shipped_index_name_traversal(s: Path) -> Outcome:
    def edit(c):
        def fn(d):
            e = next(e for e in d["certificates"] if e["name"] == "upper-any-m10-n3.json")
            e["name"] = "../certificates/upper-any-m10-n3.json"
            e["digest"] = digest(e)
        edit_json(c / "INDEX", fn)
    return _shipped(s, edit, ("bound", "--m", "10", "--n", "3"), "exit 4 (a name that is not a plain file name)", {4})


@case(2)
def t2_shipped_cited_file_changed(s: Path) -> Outcome:
    def edit(c):
        with open(c / "upper-any-m10-n3.json", "a") as f:
            f.write("\n")
    return _shipped(s, edit, ("bound", "--m", "10", "--n", "3"), "exit 4 (cited file's sha256 differs)", {4})


@case(2)
def t2_shipped_cited_file_fifo(s: Path) -> Outcome:
    return _shipped(s, _fifo_at("upper-any-m10-n3.json"), ("bound", "--m", "10", "--n", "3"), "exit 4 at once", {4}, timeout=20)


@case(2)
def t2_shipped_code_summary_escape(s: Path) -> Outcome:
    """A code name with ESC and a newline in COMPUTED's code_files (INDEX's COMPUTED sha256
    updated): the hub prints the code name; it must come out escaped on one line."""
    def edit(c):
        def fn(d):
            d["code_files"]["lower-position-independent-m32-n3.json"]["summary"]["code"] = "RM\x1b[2J\nlower: 999 by forged"
        edit_json(c / "COMPUTED", fn)
        _rewrite_computed_sha(c)
    root = package_copy(s)
    edit(root / "kernelbounds" / "certificates")
    r = kb(s, "bound", "--m", "32", "--n", "3", pythonpath=root)
    extra = []
    if "\x1b" in r.out:
        extra.append("raw ESC on stdout")
    if any(line.startswith("lower: 999") for line in r.out.splitlines()):
        extra.append("the forged newline started an output line")
    return verdict(r, "exit 4 (a code description not derived from the file) or exit 0 with the name escaped on one line",
                   {0, 4}, extra=extra)


@case(2)
def t2_shipped_code_summary_huge_numbers(s: Path) -> Outcome:
    def edit(c):
        text = (c / "COMPUTED").read_text().replace('"johnson_bound": 620070', '"johnson_bound": ' + "9" * 4200, 1)
        (c / "COMPUTED").write_text(text)
        _rewrite_computed_sha(c)
    root = package_copy(s)
    edit(root / "kernelbounds" / "certificates")
    r = kb(s, "bound", "--m", "32", "--n", "3", pythonpath=root)
    extra = [] if "9" * 300 not in r.out else ["a 4200-digit number printed whole"]
    return verdict(r, "exit 4 (forged description) or exit 0 with the number shortened", {0, 4}, extra=extra)


@case(2)
def t2_shipped_code_summary_lower_forged(s: Path) -> Outcome:
    """The code description's own 'lower' raised (INDEX's COMPUTED sha256 updated): the
    hub must print the checker's claim (58), never the description's number."""
    def edit(c):
        edit_json(c / "COMPUTED", lambda d: d["code_files"]["lower-position-independent-m32-n3.json"]["summary"].__setitem__("lower", 99))
        _rewrite_computed_sha(c)
    return _shipped(s, edit, ("bound", "--m", "32", "--n", "3"), "exit 0 printing 58 (the claim), or exit 4; never 99", {0, 4},
                    forbid=("99 <= r*",))


# --------------------------------------------------------------------------- target 3

def _bound(s: Path, *args: str, **extra) -> Run:
    return kb(s, "bound", *args, **extra)


@case(3)
def t3_o_existing_file_replaced(s: Path) -> Outcome:
    f = s / "lb.json"
    f.write_text("old")
    r = _bound(s, "--m", "10", "--n", "9", "-o", str(f), "--json")
    extra = []
    try:
        doc = json.loads(r.out)
        w = doc.get("written")
        if w != [{"option": "-o", "file": str(f), "replaced": True}] and not (isinstance(w, list) and len(w) == 1 and w[0].get("replaced") is True):
            extra.append(f"written = {w!r}")
    except ValueError:
        extra.append("stdout is not one JSON object")
    if f.read_text() == "old":
        extra.append("not replaced")
    return verdict(r, "exit 0, file replaced, --json written = [{option: -o, file, replaced: true}]", {0}, extra=extra)


@case(3)
def t3_o_dev_null_nothing_beside(s: Path) -> Outcome:
    before = listing(Path("/dev"))
    r = _bound(s, "--m", "10", "--n", "3", "-o", "/dev/null")
    extra = [] if listing(Path("/dev")) == before else ["a file appeared in /dev"]
    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        extra.append("/dev/null replaced")
    return verdict(r, "exit 0, /dev unchanged", {0}, extra=extra)


@case(3)
def t3_base_out_dev_null(s: Path) -> Outcome:
    before = listing(Path("/dev"))
    r = _bound(s, "--m", "10", "--n", "3", "-o", "/dev/null", "--base-out", "/dev/null")
    extra = [] if listing(Path("/dev")) == before else ["a file appeared in /dev"]
    # docs: "two options naming one file" is refused; a device that discards loses nothing, so 0 is accepted too
    return verdict(r, "exit 2 (two options naming one file) or 0 (a device that discards), /dev unchanged", {0, 2},
                   extra=extra, err_lines=1)


@case(3)
def t3_o_fifo_no_reader(s: Path) -> Outcome:
    os.mkfifo(s / "pipe")
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(s / "pipe"), timeout=20)
    extra = [] if stat.S_ISFIFO(os.lstat(s / "pipe").st_mode) else ["the FIFO was replaced"]
    return verdict(r, "exit 2 at once, 'a FIFO with no reader'", {2}, need=("FIFO",), extra=extra, err_lines=1)


@case(3)
def t3_o_folder(s: Path) -> Outcome:
    (s / "d").mkdir()
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(s / "d"))
    return verdict(r, "exit 2, one line 'cannot write'", {2}, need=("cannot write",), err_lines=1)


@case(3)
def t3_o_dev_full(s: Path) -> Outcome:
    r = _bound(s, "--m", "10", "--n", "3", "-o", "/dev/full")
    return verdict(r, "exit 2, 'No space left on device'", {2}, need=("No space left",), err_lines=1)


@case(3)
def t3_stdout_dev_full(s: Path) -> Outcome:
    cmd = f"{sys.executable} -m kernelbounds bound --m 10 --n 3 >/dev/full"
    p = subprocess.run(["sh", "-c", cmd], env=_env(s), capture_output=True, text=True, timeout=60)
    r = Run("kernelbounds bound --m 10 --n 3 >/dev/full", p.returncode, p.stdout, p.stderr, 0)
    return verdict(r, "exit 2, one line", {2}, err_lines=1)


@case(3)
def t3_o_missing_parent(s: Path) -> Outcome:
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(s / "no" / "x.json"))
    return verdict(r, "exit 2, one line", {2}, err_lines=1, extra=[] if not (s / "no").exists() else ["created the folder"])


@case(3)
def t3_two_options_one_file(s: Path) -> Outcome:
    f = s / "x.json"
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(f), "--upper-output", str(f))
    return verdict(r, "exit 2, nothing written", {2}, extra=["x.json written"] if f.exists() else [], err_lines=1)


@case(3)
def t3_two_options_one_file_via_symlink(s: Path) -> Outcome:
    f = s / "x.json"
    os.symlink(f, s / "alias.json")
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(f), "--upper-output", str(s / "alias.json"))
    extra = []
    if r.rc == 0:
        extra.append("both sides written to one file through a symlink (the last write wins)")
    return verdict(r, "exit 2 (two options naming one file, through a symlink), nothing written", {2}, extra=extra)


@case(3)
def t3_two_options_one_file_via_hardlink(s: Path) -> Outcome:
    f = s / "x.json"
    f.write_text("old")
    os.link(f, s / "hard.json")
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(f), "--upper-output", str(s / "hard.json"))
    return verdict(r, "exit 0 (two names, replaced atomically, hard link broken) or 2", {0, 2})


@case(3)
def t3_base_out_without_base(s: Path) -> Outcome:
    a, b = s / "a.json", s / "b.json"
    r = _bound(s, "--m", "10", "--n", "9", "-o", str(a), "--base-out", str(b))
    extra = [f"{p.name} written" for p in (a, b) if p.exists()]
    extra += [f"left {n}" for n in listing(s) if n not in ("defaultcache",)]
    return verdict(r, "exit 2, neither file written, no temporary file left", {2}, extra=extra, err_lines=1)


@case(3)
def t3_base_out_with_base_json_names_both(s: Path) -> Outcome:
    a, b = s / "a.json", s / "b.json"
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(a), "--base-out", str(b), "--json")
    extra = []
    try:
        files = sorted(w["file"] for w in json.loads(r.out)["written"])
        if files != sorted([str(a), str(b)]):
            extra.append(f"written lists {files}")
    except (ValueError, KeyError, TypeError):
        extra.append("no 'written' list")
    extra += [f"{p.name} missing" for p in (a, b) if not p.exists()]
    return verdict(r, "exit 0, both files, --json written names both", {0}, extra=extra)


@case(3)
def t3_all_outputs_json(s: Path) -> Outcome:
    a, b, c = s / "a.json", s / "b.json", s / "c.json"
    r = _bound(s, "--m", "6", "--n", "3", "-o", str(a), "--upper-output", str(b), "--upper-nonnegative-output", str(c), "--json")
    extra = []
    try:
        files = sorted(w["file"] for w in json.loads(r.out)["written"])
        if files != sorted(map(str, (a, b, c))):
            extra.append(f"written lists {files}")
    except (ValueError, KeyError, TypeError):
        extra.append("no 'written' list")
    extra += [f"left {n}" for n in listing(s) if n not in ("defaultcache", "a.json", "b.json", "c.json")]
    return verdict(r, "exit 0, three files, written names three", {0}, extra=extra)


@case(3)
def t3_o_symlink_written_through(s: Path) -> Outcome:
    target = s / "target.json"
    target.write_text("old")
    link = s / "link.json"
    os.symlink(target, link)
    r = _bound(s, "--m", "10", "--n", "3", "-o", str(link))
    extra = [] if os.path.islink(link) else ["the symlink was replaced"]
    if target.read_text() == "old":
        extra.append("target not written")
    return verdict(r, "exit 0, the link stays a link, its target holds the certificate", {0}, extra=extra)


@case(3)
def t3_o_unwritable_folder(s: Path) -> Outcome:
    """A folder nobody owns, mode 0555: root can still write; so use a read-only bind? Use
    chattr-free approach: a path under /proc, which refuses creation."""
    r = _bound(s, "--m", "10", "--n", "3", "-o", "/proc/kernelbounds-hostile.json")
    return verdict(r, "exit 2, one line 'cannot write'", {2}, need=("cannot write",), err_lines=1)


@case(3)
def t3_upper_output_trivial_lower(s: Path) -> Outcome:
    a = s / "a.json"
    b = s / "b.json"
    r = _bound(s, "--m", "3", "--n", "9", "--upper-output", str(b), "-o", str(a))
    extra = [f"{p.name} written" for p in (a, b) if p.exists()]
    return verdict(r, "exit 2 (trivial lower side refused), no file written", {2}, extra=extra, err_lines=1)


@case(3)
def t3_table_plot_bad_extension(s: Path) -> Outcome:
    r = kb(s, "table", "--m", "2..4", "--n", "3..3", "--plot", str(s / "x.gif"))
    return verdict(r, "exit 2 before any work, nothing written", {2}, extra=["x.gif written"] if (s / "x.gif").exists() else [], err_lines=1)


@case(3)
def t3_table_plot_dev_full(s: Path) -> Outcome:
    """A symlink full.png -> /dev/full: written through the link, which fails: exit 2."""
    os.symlink("/dev/full", s / "full.png")
    r = kb(s, "table", "--m", "2..4", "--n", "3..3", "--plot", str(s / "full.png"))
    extra = [] if os.path.islink(s / "full.png") else ["the link was replaced"]
    return verdict(r, "exit 2, one line 'No space left on device'", {2}, err_lines=1, need=("No space left",), extra=extra)


@case(3)
def t3_table_plot_folder(s: Path) -> Outcome:
    (s / "p.png").mkdir()
    r = kb(s, "table", "--m", "2..4", "--n", "3..3", "--plot", str(s / "p.png"))
    return verdict(r, "exit 2, one line 'cannot write'", {2}, err_lines=1)


def head_file(s: Path, m: int, tokens: list[str], rank: int = 4, digits: int = 0, seed: int = 1) -> Path:
    import random
    rng = random.Random(seed)

    def num():
        v = rng.randint(1, 9)
        return str(v) if digits == 0 else f"{v}{'1' * digits}/{'3' * digits}7"
    doc = {"format": "kernelbounds-head", "version": 1, "m": m, "tokens": {
        t: {"phi_q": [num() for _ in range(rank)], "phi_k": [num() for _ in range(rank)], "value": ["1" if t.count("1") % 2 else "0"],
            "readout": {"w": ["1"], "b": "0"}} for t in tokens}}
    p = s / "head.json"
    p.write_text(json.dumps(doc))
    return p


def all_tokens(m: int) -> list[str]:
    return [format(i, f"0{m}b") for i in range(2 ** m)]


@case(3)
def t3_evaluate_o_failing_head_writes_nothing(s: Path) -> Outcome:
    h = head_file(s, 3, all_tokens(3))
    out = s / "cert.json"
    r = kb(s, "evaluate", "--head", str(h), "--all", "--m", "3", "--n", "3", "-o", str(out))
    return verdict(r, "exit 1 (the head fails), no file", {1}, extra=["file written"] if out.exists() else [])


@case(3)
def t3_evaluate_o_dev_null(s: Path) -> Outcome:
    h = head_file(s, 3, all_tokens(3))
    before = listing(Path("/dev"))
    r = kb(s, "evaluate", "--head", str(h), "--all", "--m", "3", "--n", "3", "-o", "/dev/null")
    extra = [] if listing(Path("/dev")) == before else ["a file appeared in /dev"]
    return verdict(r, "exit 1, /dev unchanged", {1}, extra=extra)


# --------------------------------------------------------------------------- target 4

def pgroup_members(pgid: int) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(pid))
    return found


def _sigint_default() -> None:
    """In the child: SIGINT at its default, as at a terminal.  A suite started in the
    background by a non-interactive shell (`nohup scripts/test-slow &`) inherits SIGINT
    ignored, and Python then installs no KeyboardInterrupt handler: the signal sent below
    would be lost and the case would time out for a reason that is not the program's."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(s: Path, args: list[str], sig: int, *, to_group: bool = False, wait: float = 4.0, cwd: Path | None = None,
              pythonpath: Path | None = None) -> Outcome:
    code = {signal.SIGINT: 130, signal.SIGTERM: 143}[sig]
    word = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}[sig]
    cmd = [sys.executable, "-m", "kernelbounds", *args]
    shown = f"kernelbounds {' '.join(args)}  (signal {signal.Signals(sig).name} to the {'group' if to_group else 'front end'} after {wait:.0f} s)"
    p = subprocess.Popen(cmd, cwd=cwd or s, env=_env(s, pythonpath), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_sigint_default)
    time.sleep(wait)
    if p.poll() is not None:
        out, err = p.communicate()
        return Outcome(shown, f"exit {code} within 2 s", f"ended by itself before the signal (exit {p.returncode}): {err.decode()[-200:]!r}", False)
    workers = len(pgroup_members(p.pid))
    t0 = time.monotonic()
    (os.killpg if to_group else os.kill)(p.pid, sig)
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    took = time.monotonic() - t0
    time.sleep(0.5)
    left = pgroup_members(p.pid)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    err_text = err.decode(errors="replace")
    lines = err_text.strip().splitlines()
    problems = []
    if p.returncode != code:
        problems.append(f"exit {p.returncode}")
    if took > 2:
        problems.append(f"took {took:.1f} s")
    if left:
        problems.append(f"{len(left)} processes of the group left: {left}")
    if lines[-1:] != [f"kernelbounds: {word}"]:
        problems.append(f"last stderr line {lines[-1:]!r}")
    if len([ln for ln in lines if ln == f"kernelbounds: {word}"]) != 1 or "Traceback" in err_text:
        problems.append(f"stderr: {err_text[-300:]!r}")
    actual = f"exit {p.returncode} after {took:.2f} s ({workers} processes in the group before), {len(left)} left"
    if problems:
        actual += "; PROBLEMS: " + ", ".join(problems)
    return Outcome(shown, f"exit {code} within 2 s, one line 'kernelbounds: {word}', no process left", actual, not problems)


TABLE = ["table", "--m", "30..60", "--n", "9..12", "--jobs", "2"]


def _empty(s: Path) -> Path:
    d = s / "empty"
    d.mkdir(exist_ok=True)
    return d


@case(4)
def t4_table_sigint(s: Path) -> Outcome:
    return interrupt(s, TABLE, signal.SIGINT)


@case(4)
def t4_table_sigterm(s: Path) -> Outcome:
    return interrupt(s, TABLE, signal.SIGTERM)


@case(4)
def t4_table_sigint_group(s: Path) -> Outcome:
    return interrupt(s, TABLE, signal.SIGINT, to_group=True)


@case(4)
def t4_check_sigint(s: Path) -> Outcome:
    return interrupt(s, ["certificates", "--check", "--jobs", "2"], signal.SIGINT, cwd=_empty(s))


@case(4)
def t4_check_sigterm(s: Path) -> Outcome:
    return interrupt(s, ["certificates", "--check", "--jobs", "2"], signal.SIGTERM, cwd=_empty(s))


@case(4)
def t4_verify_sample_sigint(s: Path) -> Outcome:
    return interrupt(s, ["certificates", "--verify", "--sample", "2", "--seed", "example", "--jobs", "2"], signal.SIGINT, cwd=_empty(s), wait=4)


@case(4)
def t4_verify_sample_sigterm(s: Path) -> Outcome:
    return interrupt(s, ["certificates", "--verify", "--sample", "2", "--seed", "example", "--jobs", "2"], signal.SIGTERM, cwd=_empty(s), wait=4)


FAMILY = "lower-position-independent-m24-n3.json"  # 13,279,280 inputs over 5,577 tokens (docs/cli.md, evaluate)


def big_family_head(s: Path, rank: int = 64) -> Path:
    r = kb(s, "evaluate", "--family", FAMILY, "--list-tokens")
    tokens = r.out.split()
    assert r.rc == 0 and len(tokens) > 1000, r
    return head_file(s, 24, tokens, rank=rank)


@case(4)
def t4_evaluate_sigint(s: Path) -> Outcome:
    h = big_family_head(s)
    return interrupt(s, ["evaluate", "--head", str(h), "--family", FAMILY], signal.SIGINT, wait=5)


@case(4)
def t4_evaluate_sigterm(s: Path) -> Outcome:
    h = big_family_head(s)
    return interrupt(s, ["evaluate", "--head", str(h), "--family", FAMILY], signal.SIGTERM, wait=5)


# --------------------------------------------------------------------------- target 5

@case(5)
def t5_bound_m_5000_digits(s: Path) -> Outcome:
    r = kb(s, "bound", "--m", BIG, "--n", "3")
    return verdict(r, "exit 2, one short line (no 5000-digit echo)", {2}, err_lines=1,
                   extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_check_limit_5000_digits(s: Path) -> Outcome:
    f = s / "x.json"
    f.write_text("{}")
    r = kb(s, "check", str(f), "--limit", f"max_m={BIG}")
    return verdict(r, "exit 2, one short line", {2}, err_lines=1, extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_time_limit_5000_digits(s: Path) -> Outcome:
    f = s / "x.json"
    f.write_text("{}")
    r = kb(s, "check", str(f), "--time-limit", BIG)
    return verdict(r, "exit 2, one short line", {2}, err_lines=1, extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_memory_limit_5000_digits(s: Path) -> Outcome:
    f = s / "x.json"
    f.write_text("{}")
    r = kb(s, "check", str(f), "--memory-limit", BIG + "G")
    return verdict(r, "exit 2, one short line", {2}, err_lines=1, extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_evaluate_max_seconds_5000_digits(s: Path) -> Outcome:
    h = head_file(s, 3, all_tokens(3))
    r = kb(s, "evaluate", "--head", str(h), "--all", "--m", "3", "--n", "3", "--max-seconds", BIG)
    return verdict(r, "exit 2 (out of range), one short line", {2}, err_lines=1,
                   extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_evaluate_max_seconds_float_forms(s: Path) -> Outcome:
    h = head_file(s, 3, all_tokens(3))
    probs, rcs = [], []
    for v in ("nan", "inf", "-1", "1e999", "0x10"):
        r = kb(s, "evaluate", "--head", str(h), "--all", "--m", "3", "--n", "3", "--max-seconds", v)
        rcs.append(r.rc)
        probs += [f"{v}: {p}" for p in sane(r)]
        if r.rc != 2:
            probs.append(f"--max-seconds {v}: exit {r.rc}")
    return Outcome("kernelbounds evaluate --head H --all --m 3 --n 3 --max-seconds {nan,inf,-1,1e999,0x10}",
                   "exit 2 for each", f"exits {rcs}" + (f"; PROBLEMS: {probs}" if probs else ""), not probs)


@case(5)
def t5_verify_sample_5000_digits(s: Path) -> Outcome:
    r = kb(s, "certificates", "--verify", "--sample", BIG, "--seed", "x", cwd=_empty(s))
    return verdict(r, "exit 2, one short line", {2}, err_lines=1, extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_table_range_5000_digits(s: Path) -> Outcome:
    r = kb(s, "table", "--m", f"2..{BIG}", "--n", "3..3")
    return verdict(r, "exit 2, one short line", {2}, err_lines=1, extra=[] if len(r.err) < 1000 else [f"a {len(r.err)}-character message"])


@case(5)
def t5_seed_5000_digits(s: Path) -> Outcome:
    d = small_store(s)
    edit_json(d / "COMPUTED", lambda doc: doc["cells"].pop(3))
    r = kb(s, "certificates", "--verify", str(d), "--sample", "1", "--seed", BIG, "--json", "--jobs", "1")
    return verdict(r, "exit 1 (incomplete store), JSON lines, the seed echoed without crashing", {1})


@case(5)
def t5_check_cert_claim_5000_digits(s: Path) -> Outcome:
    text = valid_lb9(s).decode()
    doc = json.loads(text)
    body = json.dumps(doc, indent=1, sort_keys=True).replace('"bound": 25', '"bound": ' + BIG, 1)
    (s / "big.json").write_text(body)
    r = kb(s, "check", str(s / "big.json"))
    return verdict(r, "exit 1 or 2, one line, the number shortened", {1, 2}, err_lines=1,
                   extra=[] if BIG[:500] not in r.out + r.err else ["5000 digits printed"])


@case(5)
def t5_user_cert_claim_4000_digits(s: Path) -> Outcome:
    """A user file claiming a 4000-digit bound (valid JSON): rejected, the warning shortens it."""
    doc = json.loads(valid_lb9(s))
    folder = s / "dir"
    folder.mkdir()
    body = json.dumps(doc, indent=1, sort_keys=True).replace('"bound": 25', '"bound": ' + "8" * 4000, 1)
    (folder / "big.json").write_text(body)
    r = ask(s, folder, s / "cache")
    return never_26(r, "exit 0, 25, one warning with the number shortened", err_lines=1,
                    extra=[] if "8" * 500 not in r.err else ["4000 digits printed"])


@case(5)
def t5_evaluate_huge_rationals_max_seconds(s: Path) -> Outcome:
    h = head_file(s, 4, all_tokens(4), rank=8, digits=4000)
    r = kb(s, "evaluate", "--head", str(h), "--all", "--m", "4", "--n", "3", "--max-seconds", "5", timeout=60)
    extra = [] if r.seconds < 12 else [f"took {r.seconds:.0f} s with --max-seconds 5"]
    return verdict(r, "exit 3 within about 6 s (refused by the estimate, or stopped)", {3}, extra=extra, err_lines=2)


@case(5)
def t5_evaluate_family_max_seconds(s: Path) -> Outcome:
    h = big_family_head(s)
    r = kb(s, "evaluate", "--head", str(h), "--family", FAMILY, "--max-seconds", "3", timeout=60)
    extra = [] if r.seconds < 8 else [f"took {r.seconds:.0f} s with --max-seconds 3"]
    return verdict(r, "exit 3 within about 4 s (or a verdict 0/1 sooner)", {0, 1, 3}, extra=extra)


# --------------------------------------------------------------------------- driver

def run_case(c: Case) -> Outcome:
    scratch = Path(tempfile.mkdtemp(prefix=f"hostile-{c.name}-"))
    os.chmod(scratch, 0o755)
    try:
        return c.body(scratch)
    except Exception as exc:  # a harness failure is reported as such, not as a finding
        return Outcome(c.name, "the case runs", f"harness error: {type(exc).__name__}: {exc}"[:500], False)
    finally:
        for root, dirs, _files in os.walk(scratch):
            for d in dirs:
                try:
                    os.chmod(os.path.join(root, d), 0o755, follow_symlinks=False)
                except (OSError, NotImplementedError):
                    pass
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    tried: dict[int, int] = {}
    bad: dict[int, int] = {}
    for c in CASES:
        if a.only not in c.name:
            continue
        o = run_case(c)
        tried[c.target] = tried.get(c.target, 0) + 1
        if not o.ok:
            bad[c.target] = bad.get(c.target, 0) + 1
        if a.json:
            print(json.dumps({"case": c.name, "target": c.target, "ok": o.ok, "cmd": o.cmd, "expected": o.expected,
                              "actual": o.actual, "xfail": c.xfail}), flush=True)
        else:
            print(f"{'ok  ' if o.ok else 'FAIL'} {c.name}: {o.cmd}\n     expected: {o.expected}\n     actual:   {o.actual}", flush=True)
    for t in sorted(tried):
        print(f"target {t}: {tried[t]} cases, {bad.get(t, 0)} mishandled")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
