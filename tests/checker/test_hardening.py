"""Checker hardening: hostile files of every class get their specific verdict
on one escaped line, work bombs are refused before any work, huge numbers never decide a
verdict, special files are refused, both front ends behave the same, exit 5 exists."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, check_bytes, check_file
from kernelbounds.checker.rules import NAMING, REGISTRY
from kernelbounds.checker.text import escape, show
from lab import hostile

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"


def load(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


def check_doc(doc, guard: bool = True, **limits):
    """The verdict on a dict; guard=False checks in process (the same verdicts within the
    limits: the runtime guard only bounds CPU time and memory, and forks once per check)."""
    return check_bytes(canonical_json(doc).encode(), limits=Limits().with_overrides(**limits), guard=guard)


# ------------------------------------------------------------ (1) transcript s


def test_transcript_s_below_the_largest_answer_is_rejected():
    doc = load("transcript-q3-s4.json")
    assert check_doc(doc).code == 0
    for s in range(1, doc["s"]):
        bad = {**doc, "s": s}
        v = check_doc(bad)
        assert v.code == 1 and v.pointer.startswith("/inputs/") and f"outside 0..s = 0..{s}" in v.reason, v.render()
    assert check_doc({**doc, "s": doc["s"] + 3}).code == 0  # answers in 0..4 lie in 0..7: a true (weaker) claim


# ------------------------------------------------------------ (2) numbers of 10^5 digits


@pytest.mark.parametrize("name,data,expected", list(hostile.huge_numbers()), ids=lambda x: x if isinstance(x, str) else "")
def test_huge_numbers_get_their_verdict(name, data, expected):
    v = check_bytes(data)
    assert v.code in expected, v.render()
    assert "\n" not in v.render(verbose=False) and len(v.render(verbose=False)) < 10_000


def test_show_abbreviates_without_converting():
    x = 7**200_000  # 169,020 digits: str(x) would raise (4300-digit limit)
    text = show(x)
    assert text.startswith("<169020 digits: ") and text.endswith("...>")
    assert show(-x).startswith("-<169020 digits")
    assert show(12345) == "12345" and show(10**59) == str(10**59)
    lead = str(7**2000)[:10]  # small enough to convert: the shown leading digits are right
    assert show(7**2000).split(": ")[1].startswith(lead)


# ------------------------------------------------------------ (3) special files


def test_special_files_are_refused_without_reading(tmp_path):
    for name, path, expected in hostile.special_files(str(tmp_path)):
        v = check_file(path)
        assert v.code in expected, f"{name}: {v.render()}"


def test_reading_is_bounded_for_files_and_stdin(tmp_path):
    path = tmp_path / "c.json"
    path.write_bytes((CERTS / "transcript-q3-s4.json").read_bytes())
    size = path.stat().st_size
    assert check_file(str(path), Limits(max_file_bytes=size)).code == 0
    assert check_file(str(path), Limits(max_file_bytes=size - 1)).code == 3
    r = subprocess.run([sys.executable, "-m", "kernelbounds.checker", "--limit", f"max_file_bytes={size - 1}", "-"], input=path.read_bytes(), capture_output=True, timeout=60)
    assert r.returncode == 3 and r.stdout.count(b"\n") == 1
    r = subprocess.run([sys.executable, "-m", "kernelbounds.checker", "-"], input=path.read_bytes(), capture_output=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith(b"VALID -: transcript")


def test_memory_error_is_a_resource_limit(monkeypatch):
    from kernelbounds.checker import dispatch

    def boom(data):
        raise MemoryError

    monkeypatch.setattr(dispatch, "parse_json", boom)
    assert check_bytes(b"{}").code == 3


# ------------------------------------------------------------ (4) one escaped line


@pytest.mark.parametrize("name,data,expected", list(hostile.odd_text()) + list(hostile.deep_nesting()), ids=lambda x: x if isinstance(x, str) else "")
def test_odd_text_gives_one_printable_line(name, data, expected):
    v = check_bytes(data, path="odd\nVALID name\x1b[0m")
    assert v.code in expected, v.render()
    line = v.render(verbose=True)
    assert line.isprintable() or all(part.startswith("  ") for part in line.splitlines()[1:])
    assert line.splitlines()[0].isprintable() and not line.splitlines()[0].startswith("VALID odd\n")
    assert all(not ln.startswith(("VALID", "INVALID", "MALFORMED")) for ln in line.splitlines()[1:])


def test_escape_is_injective_on_odd_strings():
    texts = hostile.ODD + ["\\x0a", "\n"]
    assert len({escape(t) for t in texts}) == len(texts)
    assert all(escape(t).isprintable() for t in texts)


def _both(args, **kw):
    a = subprocess.run([sys.executable, "-m", "kernelbounds.checker", *args], capture_output=True, timeout=120, cwd=ROOT, **kw)
    b = subprocess.run([sys.executable, "-m", "kernelbounds", "check", *args], capture_output=True, timeout=120, cwd=ROOT, **kw)
    return a, b


def test_both_front_ends_behave_the_same(tmp_path):
    odd = tmp_path / "odd.json"
    odd.write_bytes(next(d for n, d, _ in hostile.odd_text() if n == "odd-key-0"))
    files = ["certificates/transcript-q3-s4.json", str(odd), "tests/corpus/incorrect/rank-one-more.json", str(tmp_path)]
    a, b = _both(["-v", *files])
    untimed = [[ln for ln in r.stdout.splitlines() if not ln.startswith(b"  checked in")] for r in (a, b)]
    assert a.returncode == b.returncode == 2 and untimed[0] == untimed[1] and not a.stderr and not b.stderr, (a, b)
    assert len(untimed[0]) == len(files) + 1  # one line per file, plus the valid file's route line (timing line dropped)
    a, b = _both(["--limit", "bogus=1", files[0]])
    assert a.returncode == b.returncode == 2 and len(a.stderr.splitlines()) == len(b.stderr.splitlines()) == 1


def test_a_closed_pipe_is_quiet_and_keeps_the_exit_code():
    args = ["tests/corpus/incorrect/rank-one-more.json"] + [f"missing-{i}-" + "x" * 2000 for i in range(100)]  # > 64 KiB of output
    for cmd in ([sys.executable, "-m", "kernelbounds.checker"], [sys.executable, "-m", "kernelbounds", "check"]):
        p = subprocess.Popen([*cmd, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        assert p.wait(timeout=120) == 2 and b"Traceback" not in err and b"Error" not in err


# ------------------------------------------------------------ (5) the work estimate


@pytest.mark.parametrize("name,data,expected", list(hostile.work_bombs()), ids=lambda x: x if isinstance(x, str) else "")
def test_work_bombs_are_refused_before_any_work(name, data, expected):
    """Each bomb is refused by the work estimate (exit 3) or, where the estimate shows the
    true work to be small, gets its verdict at once (the target: 60 s, or exit 3 in 1 s)."""
    v = check_bytes(data)
    assert v.code in expected, v.render()
    if v.code == 3:
        assert v.work > Limits().work_budget and "work estimate" in v.reason, v.render()
    else:
        assert v.work <= Limits().work_budget and v.seconds < 60, v.render()


@pytest.mark.parametrize("path", sorted(CERTS.glob("*.json")), ids=lambda p: p.name)
def test_committed_certificates_fit_the_budget(path):
    """The estimate is computed without checking: every committed file fits the default budget."""
    from kernelbounds.checker import estimate

    assert estimate(path.read_bytes(), Limits(), str(path)) <= Limits().work_budget


def test_work_budget_override_turns_a_refusal_into_a_verdict():
    data = next(d for n, d, _ in hostile.huge_numbers() if n == "derived-100000-digits-valid")
    v = check_bytes(data)
    assert v.code == 0 and 0 < v.work <= Limits().work_budget
    assert check_bytes(data, limits=Limits(work_budget=v.work - 1)).code == 3


# ------------------------------------------------------------ (7) exit 5


def test_a_contradiction_of_the_theory_exits_5(monkeypatch, capsys):
    from kernelbounds import kernelrank as rank
    from kernelbounds.cli import main
    from kernelbounds.cli._common import CONTRADICTION

    monkeypatch.setattr(rank, "flint_rank", lambda rows: 0)  # pretend FLINT disagrees with the formula
    assert CONTRADICTION == 5
    assert main(["rank", "--kernel", "inner", "--m", "3"]) == 5
    assert "contradicts THEORY" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(["rank", "--kernel", "inner", "--m", "3"]) == 0


def test_exit_5_is_documented():
    assert "| 5 | **the theory is contradicted**" in (ROOT / "docs" / "cli.md").read_text()
    assert "exit **5**" in (ROOT / "docs" / "certificate-format-v1.md").read_text()


# ------------------------------------------------------------ (8) causal scope


def test_causal_claim_states_its_scope():
    from lab.fuzz import seeds

    causal = next(d for d in seeds() if d["kind"] == "lower-bound" and d["variant"] == "causal")
    v = check_doc(causal)
    assert v.code == 0 and "maps do not depend on position" in v.summary


# ------------------------------------------------------------ (1) every field is used

FREE_LABELS = {"construction", "code/name", "kernel/name", "solver/name", "solver/version", "solver/options"}  # documented as free labels in the spec
SPEC = (ROOT / "docs" / "certificate-format-v1.md").read_text() + (ROOT / "docs" / "certificate-format-v2.md").read_text()


def _features_rank_doc():
    """A small feature-kernel rank certificate: a(x, z) = 1 + <x, z> at m = 2, rank 3."""
    toks = ["00", "10", "01", "11"]
    phi = [["1", t[0], t[1]] for t in toks]
    return {"format": "kernelbounds-certificate", "version": 1, "kind": "rank", "m": 2,
            "kernel": {"type": "features", "tokens": toks, "phi_q": phi, "phi_k": phi},
            "upper": {"rule": "exact"}, "lower": {"prime": 1000003, "rows": toks[:3], "cols": toks[:3]}, "claims": {"rank": 3}}


def _orthant_listed():
    from kernelbounds.lowerbounds import signrank

    return signrank.orthant(6, 3).certificate(listed=True)


def _small_orbit_form():
    from kernelbounds.lowerbounds import orbitform
    from kernelbounds.lowerbounds.codes.linear import reed_muller

    return orbitform.assemble_linear_orbits(reed_muller(1, 3), 4, 3).certificate()


def _field_docs():
    from lab.fuzz import seeds

    from helpers import level_expansion_doc

    level_expansion = level_expansion_doc(4, 3)  # the v1 level-expansion kernel
    minimality = json.loads((Path(__file__).resolve().parents[2] / "tests" / "corpus" / "correct" / "minimality-nonnegative-n3-m16.json").read_text())
    # small files of every kind and form: the orbit form on RM(1, 3) (14 words) in place of
    # the fuzz seed's RM(2, 4) (a third of a second per check), with the same fields
    docs = [_small_orbit_form() if d.get("symmetry") and "linear" in d["code"] else d for d in seeds()] + [level_expansion, _features_rank_doc(), load("explicit-rank1-m02-n3.json"), load("rank-one-infeasible-m04-n3.json")]
    docs += [load("orthant-position-independent-m06-n3.json"), load("crossing-position-independent-m05-n3.json"), _orthant_listed(), minimality]
    docs += [load("refutation-position-independent-m05-n3-r2.json"), _small_direct_sum()]
    from kernelbounds.lowerbounds import rankextension  # its base found by its hinted name among the shipped files

    docs += [rankextension.extend(load("refutation-position-independent-m05-n3-r2.json"), "refutation-position-independent-m05-n3-r2.json", 1).certificate()]
    docs += [json.loads((Path(__file__).resolve().parents[2] / "tests" / "corpus" / "correct" / "multiblock-m12-n3.json").read_text())]
    named = json.loads(json.dumps(docs[8]))
    named["kernel"]["name"] = "a label"
    return docs + [named]


def _small_direct_sum() -> dict:
    """Kind direct-sum on RM(1,3) weight 4 (14 words at m = 8) twice, n = 3."""
    from kernelbounds.lowerbounds import directsum
    from kernelbounds.lowerbounds.codes.linear import reed_muller

    return directsum.direct_sum(((directsum.Component("RM(1,3)", reed_muller(1, 3), 4), 2),), 4).certificate()


def _general(path) -> str:
    return "/".join("*" if isinstance(p, int) else p for p in path)


def test_every_field_of_every_kind_is_used_or_a_documented_label():
    """For every field (generalized path) of one certificate of every kind and form, some
    single change of it changes the verdict, unless the spec documents it as a free label
    (then every change keeps the verdict).  Every field name is named by the spec."""
    from lab.fuzz import _set, leaves, mutations

    rng = __import__("random").Random(0)
    seen_kinds, fields = set(), set()
    for doc in _field_docs():
        assert check_doc(doc).code == 0
        seen_kinds.add(doc["kind"])
        firsts = {}
        for path, value in leaves(doc):
            if path:
                firsts.setdefault(_general(path), (path, value))
        for general, (path, value) in firsts.items():
            fields.add((doc["kind"], general))
            name = next(p for p in reversed(path) if isinstance(p, str))
            assert re.search(rf"`[^`\n]*(?<![A-Za-z_]){re.escape(name)}(?![A-Za-z_])[^`\n]*`", SPEC), f"{doc['kind']}: field {general} is not in the spec"
            label = any(general == lab or general.endswith("/" + lab) for lab in FREE_LABELS)
            changes = mutations(value, rng) + [None, [], {}, "x" * 3]
            candidates = [new for new in changes if new != value and not (label and not isinstance(new, str))]
            codes = (check_doc(_set(doc, path, new), guard=False).code for new in candidates)  # lazily: `any` stops at the first
            if label:
                assert candidates and all(c == 0 for c in codes), f"{doc['kind']}: label {general} changes the verdict"
            else:
                assert any(c != 0 for c in codes), f"{doc['kind']}: no change of {general} changes the verdict: the field is unused"
    assert seen_kinds == set(REGISTRY) | set(NAMING)
    assert ("transcript", "s") in fields and ("rank", "kernel/name") in fields and ("lower-bound", "code/linear/weight") in fields


# ------------------------------------------------------------ properties of the output functions

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

BIG = st.one_of(
    st.integers(-(10**2000), 10**2000),
    st.builds(lambda k, d: 10**k + d, st.integers(1, 2000), st.integers(-3, 3)),  # runs of 9s and 0s
    st.builds(lambda b, k: b**k, st.integers(2, 99), st.integers(1, 900)),
)


@settings(max_examples=300, deadline=None)
@given(BIG)
def test_show_gives_the_exact_digit_count_and_leading_digits(x):
    digits = str(abs(x))
    text = show(x)
    if len(digits) <= 55:
        assert text == str(x)
    else:
        shown = text.lstrip("-")
        assert shown.startswith(f"<{len(digits)} digits: {digits[:12]}...>") or shown == digits
        assert text.startswith("-") == (x < 0)


@settings(max_examples=300, deadline=None)
@given(st.text(), st.text())
def test_escape_is_one_printable_line_and_injective(a, b):
    assert escape(a).isprintable() and "\n" not in escape(a)
    assert (escape(a) == escape(b)) == (a == b)


def test_an_invalid_head_with_a_big_score_matrix_is_invalid_not_refused():
    """W_Q^T W_K = 11586^2 I would make b^(g l) explode (refused), but one changed entry
    makes the head not level-determined: that is found before any power, so exit 1."""
    doc = json.loads(next(d for n, d, _ in hostile.work_bombs() if "softmax" in n))
    assert check_doc(doc).code == 3
    doc["head"]["kernel"]["W_Q"][0][1] = 5
    v = check_doc(doc)
    assert v.code == 1 and v.pointer == "/head/kernel", v.render()
