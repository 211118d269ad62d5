"""Every value a command accepts gives an answer or a one-line refusal, never exit 4
(defect 1).  Argument lists are drawn from the parser itself: each option's
declared range (``positive``/``span`` record it), its choices, its flags.  The default
suite draws from cheap sub-ranges; ``scripts/test-slow`` draws from the whole range."""

import contextlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernelbounds.cli import build_parser, main
from kernelbounds.heads.tables import TableHead

ROOT = Path(__file__).resolve().parents[2]
SUBPARSERS = next(a for a in build_parser()._actions if a.dest == "command").choices

# Cheap sub-ranges for the default suite: (command, option dest) -> largest value drawn.
CHEAP = {
    ("construct", "m"): 8, ("construct", "n"): 6, ("bound", "m"): 12, ("bound", "n"): 6, ("witness", "m"): 10, ("witness", "n"): 4,
    ("witness", "target_rank"): 6, ("table", "m"): 6, ("table", "n"): 4,
    ("rank", "m"): 64, ("rank", "max_matrix_m"): 8, ("upper", "m"): 7, ("upper", "n"): 4, ("transcript", "q"): 4,
    ("transcript", "s"): 4, ("evaluate", "m"): 3, ("evaluate", "n"): 3, ("table", "dpi"): 60, ("evaluate", "max_seconds"): 10**7,
    ("rank-one", "m"): 4, ("rank-one", "n"): 4, ("general-head", "m"): 3, ("general-head", "n"): 3, ("general-head", "rank"): 2,
    ("general-head", "starts"): 2, ("crossing", "m"): 5, ("crossing", "n"): 4, ("crossing", "time_limit"): 5,
    ("refute", "m"): 6, ("refute", "rank"): 3, ("refute", "time_limit"): 5,
}
# The whole range except where one answer takes many minutes by design (upper's LP search
# at m > 12, witness searches beyond m = 64, a table's cells beyond the stored n <= 8: each
# is a code search now, about 1.5 minutes per n over the default m = 1..256 on 2 cores).
SLOW = {("upper", "m"): 12, ("witness", "m"): 64, ("table", "n"): 10, ("general-head", "m"): 5, ("general-head", "starts"): 20, ("general-head", "rank"): 8,
        ("refute", "time_limit"): 60}
FILES = {"output", "plot", "head", "family", "files", "dir"}


def head_file(path: Path, m: int) -> str:
    head = TableHead(m, {}, {}, {}, {})
    for x in range(2**m):
        head.phi_q[x] = head.phi_k[x] = (Fraction(1),)
        head.value[x] = (Fraction(x.bit_count()),)
        head.readout[x] = ((Fraction(1, 2),), Fraction(0))
    path.write_text(json.dumps(head.to_json()))
    return str(path)


def family_head(path: Path) -> str:
    """A rank-1 head over the 20 tokens of the committed r >= 8 witness family."""
    doc = json.loads((ROOT / "certificates" / "witness-m24-n3-r8.json").read_text())
    tokens = sorted({t for inp in doc["witness"]["inputs"] for t in inp})
    head = {"format": "kernelbounds-head", "version": 1, "m": 24, "tokens": {t: {"phi_q": [1], "phi_k": [1], "value": [t.count("1")], "readout": {"w": ["1/2"], "b": 0}} for t in tokens}}
    path.write_text(json.dumps(head))
    return str(path)


@st.composite
def argv(draw, command: str, tmp: Path, cheap: bool):
    parser = SUBPARSERS[command]
    out = [command]
    dests = {}
    for action in parser._actions:
        if action.dest in ("help",) or action.dest in FILES or (command == "evaluate" and action.dest in ("m", "n")):
            continue
        t = action.type
        bounds = getattr(t, "bounds", None)
        required = action.required or not action.option_strings or (cheap and command == "table" and action.dest in ("m", "n"))  # table's defaults take minutes
        if not required and not draw(st.booleans()):
            continue
        if action.nargs == 0:  # a flag
            out.append(action.option_strings[0])
            dests[action.dest] = True
            continue
        if action.choices:
            value = draw(st.sampled_from(list(action.choices)))
        elif bounds:
            lo, hi = bounds
            hi = min(hi, CHEAP.get((command, action.dest), hi)) if cheap else min(hi, SLOW.get((command, action.dest), hi))
            a = draw(st.integers(lo, hi))
            if getattr(t, "is_span", False):
                b = draw(st.integers(a, min(hi, a + (1 if cheap else 8))))
                value = f"{a}..{b}"
            else:
                value = str(a)
        elif action.dest == "c":
            value = draw(st.sampled_from(["1/5", "1/2", "2", "0"]))
        elif action.dest == "h":
            m = dests.get("m", 2)
            value = ",".join(draw(st.sampled_from(["1", "0", "1/3", "-2"])) for _ in range(int(m) + 1))
        elif action.dest == "limit":
            value = draw(st.sampled_from(["max_m=4096", "rank_m=5", "nosuch=1"]))
        else:
            continue
        dests[action.dest] = value.split("..")[0]
        out += ([action.option_strings[0]] if action.option_strings else []) + [value]
    if command in ("construct", "bound", "witness", "rank", "upper", "transcript") and draw(st.booleans()):
        out += ["-o", str(tmp / "out.json")]
    if command == "witness" and "-o" not in out:
        out += ["-o", str(tmp / "w.json")]
    if command == "table" and draw(st.booleans()):
        out += ["--plot", str(tmp / draw(st.sampled_from(["p.png", "p.svg", "p.pdf", "p.gif"])))]
    if command == "check":
        out += [str(ROOT / "certificates" / draw(st.sampled_from(["rank-tensor-m08.json", "transcript-q3-s4.json", "construction-tensor-m04-n3.json"])))]
    if command == "evaluate":
        if draw(st.booleans()):
            out += ["--family", str(ROOT / "certificates" / "witness-m24-n3-r8.json")]
            m = 24
        else:
            m, n = draw(st.integers(1, 3 if cheap else 20)), draw(st.integers(1, 3 if cheap else 20))
            out += ["--m", str(m), "--n", str(n)]
        if "--list-tokens" not in out or draw(st.booleans()):
            out += ["--head", family_head(tmp / "hf.json") if m == 24 else head_file(tmp / "h.json", min(m, 4))]
    if command == "rank" and "--kernel" not in out and "--head" not in out and draw(st.booleans()):
        out += ["--head", head_file(tmp / "h.json", 2)]
    return out


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:  # argparse refusals
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def check_answer(args: list[str]) -> None:
    code, out, err = run(args)
    assert code in (0, 1, 2, 3, 5), (args, code, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)


COMMANDS = [c for c in SUBPARSERS if c not in ("certificates", "docs-tables")]  # regenerate for minutes (docs-tables: tests/hub/test_hub.py)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_cheap_accepted_value_answers_or_refuses_in_one_line(command, tmp_path):
    @settings(max_examples=4 if command in ("bound", "witness", "upper", "table", "construct") else 10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(st.data())
    def inner(data):
        check_answer(data.draw(argv(command, tmp_path, cheap=True)))

    inner()


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_every_accepted_value_answers_or_refuses_in_one_line(command, tmp_path):
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def inner(data):
        check_answer(data.draw(argv(command, tmp_path, cheap=False)))

    inner()


@pytest.mark.parametrize("args", [["table", "--m", "2..4", "--n", "3..3"], ["table", "--m", "2..3", "--n", "3..4", "--json"]])
def test_table_for_small_m_gives_the_trivial_bound(args):
    code, out, err = run(args)
    assert code == 0, err
    assert ("trivial" in out or "rank-one head" in out) and "max()" not in err


def test_bound_and_table_above_m_64_answer_exactly_for_n_at_most_2():
    """Beyond the stored grid at n <= 2: r* = 1 exactly (THEORY U1), from both commands."""
    for args in (["bound", "--m", "100", "--n", "2", "--json"], ["table", "--m", "65..66", "--n", "1..2", "--json"]):
        code, out, err = run(args)
        rows = [json.loads(line) for line in out.splitlines()]
        assert code == 0 and rows and all(r["lower"] == r["upper"] == 1 and r["exact"] for r in rows), err


def test_bound_and_table_above_m_64_answer():
    """Above m = 64 the lower side pads the committed direct sum below m (THEORY L9, U5):
    at m = 65 the m = 64 sum RM(2,5) + RM(2,5) (3,616), from both commands, as a lookup."""
    for args in (["bound", "--m", "65", "--n", "3", "--json"], ["table", "--m", "65..65", "--n", "3..3", "--json"]):
        code, out, err = run(args)
        assert code == 0 and json.loads(out.splitlines()[0])["lower"] >= 3616, err


@pytest.mark.parametrize("args", [["bound", "--m", "2", "--n", "3"], ["bound", "--m", "3", "--n", "3"], ["upper", "--m", "3", "--n", "3"]])
def test_small_m_bound_and_upper_answer(args):
    code, out, err = run(args)
    assert code == 0 and out.strip(), err


def test_plain_kernelbounds_prints_usage():
    code, out, err = run([])
    assert code == 0 and "usage: kernelbounds" in out and "exit codes" in out


def test_certificates_on_a_missing_folder_fails_at_once(tmp_path):
    code, out, err = run(["certificates", str(tmp_path / "nope")])
    assert code == 2 and "no such folder" in err


@pytest.mark.parametrize("command", sorted(SUBPARSERS))
def test_help_describes_the_command_its_options_exit_codes_and_an_example(command):
    text = SUBPARSERS[command].format_help()
    assert "exit codes:" in text and "example: kernelbounds " + command in text
    for action in SUBPARSERS[command]._actions:
        assert action.help, (command, action.dest)
        bounds = getattr(action.type, "bounds", None)
        if bounds:
            shown = [f"10^{len(str(v)) - 1}" if v >= 10**6 and str(v).rstrip("0") == "1" else str(v) for v in bounds]
            assert all(v in action.help for v in shown), (command, action.dest, action.help)


@pytest.mark.parametrize("command", sorted(SUBPARSERS))
def test_docs_cli_md_documents_every_command_and_option(command):
    text = (ROOT / "docs" / "cli.md").read_text()
    assert f"## {command}" in text
    section = text.split(f"## {command}", 1)[1].split("\n## ", 1)[0]
    for action in SUBPARSERS[command]._actions:
        for opt in action.option_strings:
            if opt.startswith("--") and opt != "--help":
                assert opt in section, (command, opt)


@pytest.mark.parametrize(
    "args",
    [
        ["construct", "tensor", "--m", "3", "--n", "3", "--json"],
        ["bound", "--m", "8", "--n", "3", "--json"],
        ["rank", "--kernel", "tensor", "--m", "4", "--json"],
        ["upper", "--m", "4", "--n", "3", "--json"],
        ["transcript", "--q", "2", "--s", "2", "--json"],
        ["check", str(ROOT / "certificates" / "rank-tensor-m08.json"), "--json"],
        ["table", "--m", "4..5", "--n", "3..3", "--json"],
        ["evaluate", "--family", str(ROOT / "certificates" / "witness-m24-n3-r8.json"), "--list-tokens", "--json"],
    ],
)
def test_every_command_answers_json(args):
    code, out, err = run(args)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines and all(isinstance(json.loads(line), dict) for line in lines)


def test_large_integers_are_exact_json_integers():
    """One rule for every size (docs/cli.md): a JSON integer, never a string, however large."""
    code, out, err = run(["bound", "--m", "64", "--n", "8", "--json"])
    doc = json.loads(out)
    assert type(doc["upper"]) is int and doc["upper"] >= 2**53  # upper-any-m64-n8.json
    assert f'"upper": {doc["upper"]}' in out and type(doc["lower"]) is int


def test_csv_quotes_fields_with_commas():
    import csv

    from kernelbounds.reports.report import Row, csv as to_csv

    rows = [Row(8, 3, 2, 256, 256, False, "codes, listed", "U2 tensor", "U2 tensor", 8, 8, 8, 3, 3, 3, None, "a, b.json", None, 4)]
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert parsed[0]["lower_method"] == "codes, listed" and parsed[0]["upper_certificate"] == "a, b.json" and parsed[0]["lower_certificate"] == ""


BIG = "7" * 5000  # over int()'s 4300-digit limit


@pytest.mark.parametrize("args", [["bound", "--m", BIG, "--n", "3"], ["bound", "--m", "0" * 5000 + "300", "--n", "3"],
                                  ["check", "x.json", "--time-limit", BIG], ["check", "x.json", "--memory-limit", BIG + "G"],
                                  ["evaluate", "--head", "h.json", "--all", "--m", "3", "--n", "3", "--max-seconds", BIG],
                                  ["certificates", "--verify", "--sample", BIG, "--seed", "x"], ["table", "--m", f"2..{BIG}"],
                                  ["rank", "--kernel", "tensor", "--m", "3", "--c", BIG + "/3"]],
                         ids=["bound-m", "bound-m-leading-zeros", "check-time-limit", "check-memory-limit", "evaluate-max-seconds",
                              "verify-sample", "table-range", "rank-rational"])
def test_a_huge_argument_is_a_short_usage_error_naming_no_internal_function(args, capsys):
    """A usage error is one short line (exit 2) that shows a long argument shortened (its
    first and last characters and its length) and names the option, never argparse's
    'invalid <function name> value' nor the 5000 digits."""
    with pytest.raises(SystemExit) as info:
        main(args)
    err = capsys.readouterr().err.strip().splitlines()
    assert info.value.code == 2 and len(err) == 1 and len(err[0]) < 300, err
    assert "invalid" not in err[0] and "characters)" in err[0], err


@given(st.integers(-10**40, 10**40), st.integers(0, 6000))
def test_bounded_int_reads_every_short_integer_and_refuses_long_ones(x, zeros):
    """bounded_int is int() on up to 30 significant digits (leading zeros dropped, so any
    number of them is read) and None beyond, never int()'s 4300-digit ValueError."""
    from kernelbounds.checker.arguments import bounded_int

    text = ("-" if x < 0 else "") + "0" * zeros + str(abs(x))
    assert bounded_int(text) == (x if len(str(abs(x))) <= 30 else None)
