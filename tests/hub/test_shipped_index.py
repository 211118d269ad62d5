"""The hub's committed claims come only from the checked, shipped index (docs/index-format.md):
the checker's claims equal what the hub used to parse out of the files, every listed
sha256 matches, user folders are checked before use, the invariants raise exit 5, and the
stored computed sources are what the generators produce now."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from kernelbounds.hub import answer, index, stored
from kernelbounds.hub.entrycheck import digest
from kernelbounds.cli import main

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
EVERY = ("position-independent", "position-dependent", "causal")
OLD_LOWER_HOLDS_FOR = {
    "position-independent": ("position-independent",),
    "position-dependent": ("position-dependent", "position-independent"),
    "causal": ("causal", "position-independent"),
}


def _old_claim(doc: dict) -> tuple | None:
    """The claim the hub used to read straight out of a certificate (its former parser)."""
    kind, m, n, claims = doc.get("kind"), doc.get("m"), doc.get("n"), doc.get("claims", {})
    if not isinstance(m, int) or not isinstance(n, int):
        return None
    if kind in ("lower-bound", "direct-sum", "orthant", "crossing", "rank-refutation", "rank-extension"):  # bound = r + 1 (THEORY U7, U7+)
        return ("lower", m, n, claims["bound"], tuple(sorted(OLD_LOWER_HOLDS_FOR[doc["variant"]])), None, None)
    if kind == "rank-one-infeasible":
        return ("lower", m, n, claims["lower_bound"], ("position-independent",), None, None)
    if kind == "level-family":
        return ("upper", m, n, claims["feature_rank"], tuple(sorted(EVERY)), claims["nonnegative_features"], tuple(claims["support"]))
    if kind in ("explicit-head", "multi-block-level-family") or (kind == "construction" and doc.get("construction") in ("rank1", "tensor")):
        return ("upper", m, n, claims["feature_rank"], tuple(sorted(EVERY)), claims["nonnegative_features"], None)
    return None


def test_the_index_claims_are_what_the_hub_used_to_parse():
    """For every committed file, the checker's claim (in the index) has the same side, m, n,
    value, variants, sign of the features and support as the file's own claim, which the
    hub read before; kinds with no claim on r* have none."""
    listed = index.entries()
    assert len(listed) == len(list(CERTS.glob("*.json")))
    compared = 0
    for name, entry in listed.items():
        doc = json.loads((CERTS / name).read_text())
        old = _old_claim(doc)
        claim = entry["claim"]
        if old is None:
            assert claim is None or claim["side"] == "family-minimum", name
            continue
        new = (claim["side"], claim["m"], claim["n"], claim["value"], tuple(claim["variants"]), claim.get("nonnegative_features"),
               None if claim.get("support") is None else tuple(claim["support"]))
        assert new == old, name
        compared += 1
    assert compared > 300


def test_every_listed_sha256_matches_the_shipped_file():
    for name, entry in index.entries().items():
        assert hashlib.sha256((index.shipped() / name).read_bytes()).hexdigest() == entry["sha256"], name
    meta = index.index_meta()["computed"]
    assert hashlib.sha256((index.shipped() / stored.NAME).read_bytes()).hexdigest() == meta["sha256"]
    assert (index.shipped() / "INDEX").read_bytes() == (CERTS / "INDEX").read_bytes()  # one folder, two names


def test_the_kernels_of_each_claim():
    """Lower bounds hold for the kernel classes their argument covers (THEORY L8); every upper bound's head is a nonnegative kernel and so a signed head as well."""
    for entry in index.entries().values():
        c = entry["claim"]
        if c is None or c["side"] == "family-minimum":
            continue
        if c["side"] == "upper":
            assert c["kernels"] == ["nonnegative", "signed", "signed-any-denominator"]
        else:
            assert c["kernels"] == _lower_kernels(entry["kind"], json.loads((CERTS / entry["name"]).read_text())), entry["name"]


def _lower_kernels(kind: str, doc: dict) -> list[str]:
    """The classes a lower bound holds for (THEORY L8): orthant (L7) for positive denominators
    whatever the file says; crossing (U6) and rank-one Farkas only for K >= 0; a code file
    (also a direct sum, THEORY L9) or a rank refutation for the classes its `kernel` field names and those it contains."""
    if kind == "orthant":
        return ["nonnegative", "signed"]
    chain = ["nonnegative", "signed", "signed-any-denominator"]
    kernel = doc.get("kernel", "nonnegative")
    return chain[: chain.index(kernel) + 1] if kind in ("lower-bound", "direct-sum", "rank-refutation", "rank-extension") else ["nonnegative"]


@pytest.mark.parametrize("m, n", [(4, 3), (7, 4), (12, 5), (20, 8)])
def test_the_stored_computed_sources_are_current(m, n):
    """COMPUTED holds what the generators give now (sampled cells; `kernelbounds
    certificates` compares the whole file byte for byte)."""
    from kernelbounds.release import storedcheck

    cells = answer._stored()
    rows = [(("cell", m, n, variant), cells.cells[(m, n, variant)], None) for variant in EVERY] + [(("chain", m, n), cells.chains[(m, n)], None)]
    assert [storedcheck.recheck(job).problem for job in rows] == [None] * 4


def _run(args, env=None):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_a_fabricated_user_certificate_is_ignored_with_a_warning(tmp_path):
    """A file the checker rejects, in KERNELBOUNDS_CERTIFICATES, answers as if absent and is
    named in one warning line; a valid file in the folder is used."""
    doc = json.loads((CERTS / "rank-one-infeasible-m04-n3.json").read_text())
    doc["claims"]["lower_bound"] = 6  # fabricated: a Farkas certificate proves r* >= 2 only
    fake = tmp_path / "fabricated.json"
    fake.write_text(json.dumps(doc))
    env = dict(os.environ, KERNELBOUNDS_CERTIFICATES=str(tmp_path), PYTHONPATH=str(ROOT))
    with_fake = _run(["bound", "--m", "5", "--n", "3", "--json"], env)
    env.pop("KERNELBOUNDS_CERTIFICATES")
    without = _run(["bound", "--m", "5", "--n", "3", "--json"], env)
    assert with_fake.returncode == without.returncode == 0, with_fake.stderr
    assert with_fake.stdout == without.stdout
    assert json.loads(without.stdout)["lower"] == 3
    warning = [line for line in with_fake.stderr.splitlines() if "warning" in line]
    assert len(warning) == 1 and str(fake) in warning[0] and "rejects" in warning[0], with_fake.stderr


def test_a_valid_user_certificate_is_checked_and_cited(tmp_path, capsys):
    """A checked user file that proves more than the shipped set is cited by its path."""
    answer.forget()
    good = tmp_path / "mine.json"
    good.write_bytes((CERTS / "explicit-head-m04-n3-r2.json").read_bytes())
    a = answer.bounds(4, 3, certificates=str(tmp_path))
    assert a.upper.value == 2 and a.upper.certificate == "explicit-head-m04-n3-r2.json"  # ties: the shipped file first
    assert main(["bound", "--m", "4", "--n", "3", "--certificates", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["upper"] == 2


def _lie_in_the_index(monkeypatch, name: str, **claim):
    """Replace one index entry's claim (the file and its sha256 stay real) as a wrong checker
    rule would have written it (its digest written with it)."""
    doc = json.loads(json.dumps(index.index_meta()))
    for e in doc["certificates"]:
        if e["name"] == name:
            e["claim"] = e["claim"] | claim
            e["digest"] = digest(e)
    for cached in (index.index_meta, index.entries, index.shipped_claims, answer._committed):
        cached.cache_clear()
    monkeypatch.setattr(index, "index_meta", lambda: doc)
    answer.forget()


@pytest.fixture
def restore():
    yield
    for cached in (index.entries, index.shipped_claims, answer._committed):
        cached.cache_clear()
    answer.forget()


def test_lower_above_upper_is_exit_5_naming_both(monkeypatch, capsys, restore):
    """Only a wrong checker rule could make a lower claim exceed an upper one: injected
    here into the index, the CLI refuses to answer with exit 5 and one line."""
    _lie_in_the_index(monkeypatch, "rank-one-infeasible-m04-n3.json", value=6)
    with pytest.raises(answer.TheoryContradicted, match="rank-one-infeasible-m04-n3.json.*explicit-head-m04-n3-r2.json"):
        answer.bounds(4, 3)
    assert main(["bound", "--m", "4", "--n", "3"]) == 5
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "theory contradicted" in err[0] and "explicit-head-m04-n3-r2.json" in err[0]
    assert main(["table", "--m", "4..4", "--n", "3..3"]) == 5


def test_a_tampered_shipped_file_is_never_cited(monkeypatch, restore):
    """A listed file whose bytes differ from the index is an error, not an answer."""
    doc = json.loads(json.dumps(index.index_meta()))
    for e in doc["certificates"]:
        if e["name"] == "explicit-head-m04-n3-r2.json":
            e["sha256"] = "0" * 64
            e["digest"] = digest(e)  # an entry consistent in itself: the file's bytes decide
    for cached in (index.index_meta, index.entries, index.shipped_claims, index.read_shipped, answer._committed):
        cached.cache_clear()
    monkeypatch.setattr(index, "index_meta", lambda: doc)
    answer.forget()
    with pytest.raises(index.StaleIndex, match="explicit-head-m04-n3-r2.json"):
        answer.bounds(4, 3)
    index.read_shipped.cache_clear()


def test_a_missing_index_is_an_error(monkeypatch, tmp_path, restore):
    monkeypatch.setattr(index, "shipped", lambda: tmp_path)
    for cached in (index.index_meta, index.entries, index.shipped_claims, answer._committed):
        cached.cache_clear()
    answer.forget()
    with pytest.raises(index.StaleIndex, match="missing"):
        answer.bounds(30, 3)
    monkeypatch.undo()
    index.index_meta.cache_clear()


@pytest.mark.parametrize("name", [index.INDEX, stored.NAME, "upper-any-m10-n3.json"])
@pytest.mark.parametrize("kind", ["fifo", "huge"])
def test_a_shipped_file_is_read_bounded_and_never_blocks(monkeypatch, tmp_path, name, kind):
    """INDEX, COMPUTED and a cited certificate are read through the checker's bounded reader:
    a FIFO there (which a blocking open would wait on forever) or a sparse file over
    max_file_bytes (which a whole read would load) is StaleIndex naming the file."""
    monkeypatch.setattr(index, "shipped", lambda: tmp_path)
    if kind == "fifo":
        os.mkfifo(tmp_path / name)
        why = "FIFO"
    else:
        (tmp_path / name).touch()
        os.truncate(tmp_path / name, 3 << 30)
        why = "max_file_bytes"
    with pytest.raises(index.StaleIndex, match=f"{name}.*{why}"):
        index.shipped_bytes(name)


def _through_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run the CLI with standard error on a pseudo-terminal: (exit code, what the terminal got).
    The parent keeps the slave end open until the child has exited (Linux drops what is
    unread when the last slave closes), reading as it goes."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal has a size (tqdm draws to its width)
    proc = subprocess.Popen([sys.executable, "-m", "kernelbounds", *args], stdout=subprocess.DEVNULL, stderr=slave, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    seen = b""
    try:
        while True:
            done = proc.poll() is not None
            ready, _, _ = select.select([master], [], [], 0 if done else 0.2)
            if ready:
                seen += os.read(master, 65536)
            elif done:
                break
    finally:
        os.close(slave)
        os.close(master)
    return proc.wait(timeout=60), seen.decode(errors="replace")


def test_table_draws_a_bar_on_a_terminal_and_none_with_json():
    code, seen = _through_a_terminal(["table", "--m", "2..64", "--n", "3..3"])
    assert code == 0 and "bounds (stored cells)" in seen and "/63 [" in seen, seen
    code, seen = _through_a_terminal(["table", "--m", "2..64", "--n", "3..3", "--json"])
    assert code == 0 and seen == "", seen
