"""One result shape (docs/api.md "One result shape"): every command's --json object
is its API result's to_json(), field for field, plus `output` (the file written with -o,
or null) for the commands that write one.  A new (command, API call) pair is one line of
PAIRS; "{head}", "{head3}", "{cert}" are files made by the fixture."""

import json
from pathlib import Path

import numpy as np
import pytest

import kernelbounds as kb
from kernelbounds.cli import main
from kernelbounds.cli._common import json_safe

WITNESS = str(Path(__file__).resolve().parents[2] / "certificates" / "witness-m24-n3-r8.json")

PAIRS = [
    (["evaluate", "--head", "{head3}", "--all", "--m", "3", "--n", "3"], lambda f: kb.evaluate(f["head3"], kb.Family.all(3, 3))),
    (["evaluate", "--head", "{head24}", "--family", WITNESS], lambda f: kb.evaluate(f["head24"], WITNESS)),
    (["rank", "--kernel", "tensor", "--m", "5"], lambda f: kb.rank("tensor", 5)),
    (["rank", "--head", "{head3}"], lambda f: kb.rank(head=f["head3"])),
    (["transcript", "--q", "2", "--s", "2"], lambda f: kb.transcript(2, 2)),
    (["construct", "tensor", "--m", "3", "--n", "3"], lambda f: kb.construct("tensor", 3, 3)),
    (["check", "{cert}"], lambda f: kb.check(f["cert"])),
]
CLI_ONLY = {"output"}  # where the command wrote its file: not a property of the result
VOLATILE = {"seconds"}  # measured, so never equal between two runs


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("shape")
    bits = np.array([[(x >> i) & 1 for i in range(3)] for x in range(8)])
    rng = np.random.default_rng(0)
    head3 = kb.Head.from_arrays(rng.random((8, 2)), rng.random((8, 2)), bits, (bits, np.full(8, -0.25)))
    tokens = [kb.Token.to_str(x, 24) for x in kb.family_tokens(WITNESS)]
    head24 = kb.Head.from_arrays(rng.random((len(tokens), 2)), rng.random((len(tokens), 2)), np.zeros((len(tokens), 1)), (np.zeros((len(tokens), 1)), np.zeros(len(tokens))), tokens=tokens)
    out = {"head3": d / "head3.json", "head24": d / "head24.json", "cert": d / "cert.json"}
    out["head3"].write_text(json.dumps(head3.to_json()))
    out["head24"].write_text(json.dumps(head24.to_json()))
    out["cert"].write_text(json.dumps(kb.construct("rank1", 2, 2).to_certificate()))
    return {k: str(v) for k, v in out.items()}


@pytest.mark.parametrize("args, call", PAIRS, ids=[" ".join(a[:3]) for a, _ in PAIRS])
def test_the_cli_json_is_the_api_to_json(args, call, files, capsys):
    main([a.format(**files) for a in args] + ["--json"])
    cli = json.loads(capsys.readouterr().out)
    api = json.loads(json.dumps(json_safe(call(files).to_json())))
    assert set(cli) - CLI_ONLY == set(api), (set(cli) ^ set(api)) - CLI_ONLY
    assert {k: v for k, v in cli.items() if k not in CLI_ONLY | VOLATILE} == {k: v for k, v in api.items() if k not in VOLATILE}
