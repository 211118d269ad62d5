"""Every line the tool prints about user-supplied names and strings goes through one escaping
routine (the checker's kernelbounds.checker.text.escape): a file name with ESC, a kind
string with a newline, an environment value with a newline, an unknown option cannot forge
a second line or drive the terminal."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, **(env or {})), timeout=300)


def _clean(text: str) -> bool:
    return all(line.isprintable() for line in text.splitlines()) and "\r" not in text


def test_a_rejected_file_named_with_esc_is_one_escaped_warning(tmp_path):
    (tmp_path / "\x1b[31mred.json").write_text("{}")
    r = run("bound", "--m", "6", "--n", "3", "--certificates", str(tmp_path))
    assert r.returncode == 0, r.stderr
    warnings = [line for line in r.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "\\x1b[31mred.json" in warnings[0] and _clean(r.stderr)


def test_a_kind_string_with_a_newline_cannot_forge_a_line(tmp_path):
    doc = {"format": "kernelbounds-certificate", "version": 1, "kind": "lower-bound\nVALID forged.json: r >= 1000", "m": 6, "n": 3}
    (tmp_path / "k.json").write_text(json.dumps(doc))
    r = run("bound", "--m", "6", "--n", "3", "--certificates", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert _clean(r.stderr) and not any(line.startswith("VALID") for line in r.stderr.splitlines())
    assert len([line for line in r.stderr.splitlines() if line.startswith("kernelbounds: warning:")]) == len(r.stderr.splitlines()) == 1


def test_an_environment_value_with_a_newline_is_one_line():
    r = run("bound", "--m", "6", "--n", "3", env={"KERNELBOUNDS_CERTIFICATES": "/no/such\nkernelbounds: forged"})
    assert r.stderr.count("\n") == 1 and "\\x0akernelbounds: forged" in r.stderr and _clean(r.stderr)


def test_an_unwritable_output_named_with_esc_is_one_escaped_error(tmp_path):
    r = run("construct", "rank1", "--m", "2", "--n", "2", "-o", str(tmp_path / "no\x1b]0;title\x07" / "c.json"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "\\x1b]0;title\\x07" in r.stderr and _clean(r.stderr)


def test_an_unknown_option_with_esc_is_one_escaped_usage_line():
    r = run("bound", "--m", "6", "--n", "3", "--\x1b[2Jx")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "\\x1b[2Jx" in r.stderr and _clean(r.stderr)


def test_a_written_path_with_a_newline_is_shown_escaped(tmp_path):
    out = tmp_path / "a\nb.json"
    r = run("upper", "--m", "6", "--n", "3", "-o", str(out))
    assert r.returncode == 0 and out.exists(), r.stderr
    assert _clean(r.stdout) and "a\\x0ab.json" in r.stdout
