"""`kernelbounds check --base PATH` (and `python -m kernelbounds.checker`): a rank extension
finds the refutation it names by sha256 among --base, the other files, then its own folder."""

import json
import shutil
from pathlib import Path

from kernelbounds.cli import main

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
EXT = "extension-causal-m12-n3-r6.json"


def _base_name() -> str:
    return json.loads((CERTS / EXT).read_text())["base"]["name"]


def test_an_extension_whose_base_is_nowhere_is_one_line_exit_1_and_checks_with_base(tmp_path, capsys):
    from kernelbounds.certificate import canonical_json
    from kernelbounds.lowerbounds import rankextension, refutation

    base = refutation.refute(6, 3, 3, "causal", kernel="nonnegative").certificate()  # not a shipped file
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "e.json").write_text(canonical_json(rankextension.extend(base, "base.json", 2).certificate()))
    (tmp_path / "b" / "base.json").write_text(canonical_json(base))
    assert main(["check", str(tmp_path / "a" / "e.json")]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("INVALID") and "/base/sha256" in out
    assert main(["check", str(tmp_path / "a" / "e.json"), "--base", str(tmp_path / "b" / "base.json")]) == 0
    assert "feature rank >= 6" in capsys.readouterr().out


def test_a_copy_of_a_committed_extension_finds_its_base_among_the_shipped_files(tmp_path, capsys):
    shutil.copy(CERTS / EXT, tmp_path / EXT)
    assert main(["check", str(tmp_path / EXT)]) == 0
    assert "feature rank >= 7" in capsys.readouterr().out


def test_the_base_among_the_files_of_the_command_counts(tmp_path, capsys):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
    shutil.copy(CERTS / EXT, tmp_path / "a" / EXT)
    shutil.copy(CERTS / _base_name(), tmp_path / "b" / "renamed.json")
    assert main(["check", str(tmp_path / "a" / EXT), str(tmp_path / "b" / "renamed.json")]) == 0
    assert capsys.readouterr().out.count("VALID") == 2


def test_refute_replays_the_direct_m8_rank4_refutation(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["refute", "--m", "8", "--rank", "4", "--variant", "position-dependent", "-o", str(out)]) == 0
    assert "so r* >= 5" in capsys.readouterr().out
    assert main(["check", str(out)]) == 0


def test_a_huge_sparse_file_beside_an_extension_does_not_use_up_the_base_search(tmp_path, capsys):
    """A file over max_file_bytes is never read, so it does not count against the bytes the
    search for the base may read: the copy still finds its shipped base."""
    shutil.copy(CERTS / EXT, tmp_path / EXT)
    with open(tmp_path / "a-huge.json", "wb") as fh:
        fh.truncate(4 * 2**30)  # sorts before the extension in the folder scan
    assert main(["check", str(tmp_path / EXT)]) == 0
    assert "feature rank >= 7" in capsys.readouterr().out
