"""The API validates its arguments exactly as the command line does (kernelbounds/arguments.py,
docs/api.md "Arguments"): bool is not an int, unhashable values are a ValueError naming the
argument, n is capped at 64 as --n is; Limits validates its fields at construction; the
command line reads ASCII digits only."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import kernelbounds as kb
from kernelbounds import arguments
from kernelbounds.checker import Limits
from kernelbounds.cli import build_parser, main
from kernelbounds.cli._common import VARIANTS

ROOT = Path(__file__).resolve().parents[2]


def _option(command: str, dest: str):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return next(a for a in sub._actions if a.dest == dest)


def test_the_api_ranges_and_choices_are_the_command_lines():
    assert _option("bound", "m").type.bounds == arguments.BOUND_M
    assert _option("bound", "n").type.bounds == (1, arguments.MAX_N)
    assert _option("upper", "m").type.bounds == arguments.UPPER_M
    assert _option("witness", "m").type.bounds == arguments.WITNESS_M and _option("witness", "n").type.bounds == arguments.WITNESS_N
    assert _option("witness", "target_rank").type.bounds == arguments.TARGET_RANK
    assert tuple(_option("bound", "kernel").choices) == arguments.KERNELS and tuple(VARIANTS) == arguments.VARIANTS


BAD = [
    ((True, 3), {}, "m"), ((6, True), {}, "n"), (([6], 3), {}, "m"), ((6, [3]), {}, "n"), ((6.0, 3), {}, "m"),
    ((6, 3, ["causal"]), {}, "variant"), ((6, 3), {"kernel": ["signed"]}, "kernel"), ((6, 3), {"certificates": ["d"]}, "certificates"),
    ((6, 3), {"certificates": {"a": 1}}, "certificates"), ((6, 10**100), {}, "n"), ((6, 65), {}, "n"), ((0, 3), {}, "m"), ((257, 3), {}, "m"),
]


@pytest.mark.parametrize("args,kw,name", BAD)
def test_bound_refuses_what_the_command_line_refuses(args, kw, name):
    with pytest.raises(ValueError) as info:
        kb.bound(*args, **kw)
    assert str(info.value).startswith(f"{name} must be") and "\n" not in str(info.value)


@pytest.mark.parametrize("call", [lambda: kb.upper([6], 3), lambda: kb.upper(65, 3), lambda: kb.upper(6, 3, nonnegative=[1]), lambda: kb.upper(6, 3, certificates=[1]),
                                  lambda: kb.witness(True, 3, 5), lambda: kb.witness([24], 3, 5), lambda: kb.witness(24, 3, [5]), lambda: kb.witness(24, 3, 5, ["causal"])])
def test_upper_and_witness_refuse_unhashable_and_out_of_range_values(call):
    with pytest.raises(ValueError):
        call()


def test_accepted_values_still_answer(tmp_path):
    assert kb.bound(6, 3).lower == kb.bound(6, 3, certificates=None).lower
    assert kb.bound(6, 64).n == 64 and kb.upper(64, 3).m == 64
    assert kb.bound(6, 3, certificates=tmp_path).lower == kb.bound(6, 3).lower  # an os.PathLike folder


@given(st.one_of(st.booleans(), st.floats(), st.text(max_size=5), st.lists(st.integers(), max_size=3), st.none(), st.integers(-10, 0), st.integers(65, 10**30)))
def test_every_non_argument_n_is_a_value_error(n):
    with pytest.raises(ValueError):
        kb.bound(6, n)


@pytest.mark.parametrize("field,value", [("max_m", None), ("max_n", 2.5), ("work_budget", -5), ("max_list", True), ("max_file_bytes", 10**20), ("rank_m", "10")])
def test_limits_are_validated_at_construction(field, value):
    with pytest.raises(ValueError) as info:
        Limits(**{field: value})
    assert str(info.value).startswith(field)
    with pytest.raises(ValueError):
        Limits().with_overrides(**{field: value})


@pytest.mark.parametrize("text", ["1_0", "٦", "６", " 6", "+6", "6.0", "0x6"])
def test_the_command_line_reads_ascii_digits_only(text, capsys):
    for args in (["bound", "--m", text, "--n", "3"], ["table", "--m", f"{text}..8", "--n", "3"], ["check", "--limit", f"max_m={text}", "x.json"]):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "ASCII digits" in err, (args, err)


def test_the_command_line_refuses_arabic_indic_digits_in_a_process():
    r = subprocess.run([sys.executable, "-m", "kernelbounds", "bound", "--m", "٦", "--n", "3"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "ASCII digits" in r.stderr


@given(st.text(alphabet="0123456789_٠١٢٣٤٥٦٧٨٩０１２３４５６７８９ -+", min_size=1, max_size=6))
def test_ascii_integer_reads_exactly_ascii_decimal_numerals(text):
    plain = text.removeprefix("-")
    expected = int(text) if plain and plain.isascii() and plain.isdigit() else None
    assert arguments.ascii_integer(text) == expected
