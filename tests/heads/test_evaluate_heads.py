"""Evaluating users' heads exactly: table heads, head files, witness families."""

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from kernelbounds.upperbounds.constructions import tensor
from kernelbounds.heads.evaluate import evaluate, family_from_document
from kernelbounds.heads.results import l1_violations
from kernelbounds.heads.tables import HeadError, TableHead, load

ROOT = Path(__file__).resolve().parents[2]
WITNESS = ROOT / "certificates" / "witness-m24-n3-r8.json"


def u2_table_head(m):
    c = tensor(m, 3)
    head = TableHead(m, {}, {}, {}, {})
    for x in range(2**m):
        head.phi_q[x], head.phi_k[x] = c.kernel.feature(x, m, "q"), c.kernel.feature(x, m, "k")
        head.value[x] = tuple(Fraction((x >> i) & 1) for i in range(m))
        head.readout[x] = c.readout.affine(x, m)
    return head


def random_head(tokens, m, r, seed):
    rng = random.Random(seed)
    head = TableHead(m, {}, {}, {}, {})
    for z in tokens:
        head.phi_q[z] = tuple(Fraction(rng.randint(0, 9), 7) for _ in range(r))
        head.phi_k[z] = tuple(Fraction(rng.randint(0, 9), 7) for _ in range(r))
        head.value[z] = (Fraction(rng.randint(-9, 9)),)
        head.readout[z] = ((Fraction(1),), Fraction(0))
    return head


def test_u2_as_a_table_head_solves_all_inputs_and_roundtrips_through_json():
    head = u2_table_head(3)
    again = load(json.dumps(head.to_json()))
    result = evaluate(again, [(a, b, c) for a in range(8) for b in range(8) for c in range(8)], None)
    assert result.failures == 0 and result.worst_error == Fraction(2, 7) and result.kernel_rank == 8


def test_rank_7_head_fails_the_r8_family_and_evaluate_names_the_input(tmp_path):
    doc = json.loads(WITNESS.read_text())
    family, scored, cert = family_from_document(doc)
    tokens = sorted({z for inp in family for z in inp})
    head = random_head(tokens, 24, 7, seed=3)
    result = evaluate(head, family, scored)
    assert result.kernel_rank <= 7 and result.failures > 0 and result.first_failure is not None
    assert l1_violations(head, cert)  # some link's L1 conclusion fails
    path = tmp_path / "h7.json"
    path.write_text(json.dumps(head.to_json()))
    r = subprocess.run([sys.executable, "-m", "kernelbounds", "evaluate", "--head", str(path), "--family", str(WITNESS)], capture_output=True, text=True)
    assert r.returncode == 1 and "first failing input" in r.stdout and "L1 at query" in r.stdout, r.stdout + r.stderr


def test_floats_in_a_head_file_are_read_exactly():
    doc = {"format": "kernelbounds-head", "version": 1, "m": 1, "tokens": {"1": {"phi_q": [0.1], "phi_k": [1], "value": [0.5], "readout": {"w": [1], "b": "1/3"}}}}
    head = load(json.dumps(doc))
    assert head.phi_q[1] == (Fraction(0.1),) and head.phi_q[1][0] != Fraction(1, 10)


@pytest.mark.parametrize("text,where", [("{}", "/format"), ('{"format": "kernelbounds-head", "version": 1, "m": 2, "tokens": {"1x": {}}}', "/tokens/1x")])
def test_bad_head_files_name_the_field(text, where):
    with pytest.raises(HeadError, match=where):
        load(text)
