"""Every committed certificate validates against the written JSON Schema."""

import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_committed_certificates_match_the_schema():
    schema = json.loads((ROOT / "kernelbounds" / "schemas" / "certificate-v1.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted((ROOT / "certificates").glob("*.json"))
    files = [p for p in files if json.loads(p.read_text())["version"] == 1]  # the v1 schema describes v1 files
    assert files
    for path in files:
        doc = json.loads(path.read_text())
        if doc["version"] != 1:  # the schema describes format version 1 (v2: docs/certificate-format-v2.md)
            continue
        errors = list(validator.iter_errors(doc))
        assert not errors, f"{path.name}: {errors[0].message}"


def test_schema_rejects_a_float_rational():
    schema = json.loads((ROOT / "kernelbounds" / "schemas" / "certificate-v1.schema.json").read_text())
    doc = json.loads((ROOT / "certificates" / "construction-tensor-m03-n3.json").read_text())
    doc["claims"]["worst_error"] = 0.2857
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(doc))


def test_head_files_match_the_head_schema_and_bad_ones_do_not():
    from fractions import Fraction

    from kernelbounds import schemas
    from kernelbounds.heads.tables import TableHead, load

    schema = schemas.load("head-v1")
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    head = TableHead(2, {}, {}, {}, {})
    for x in range(4):
        head.phi_q[x], head.phi_k[x] = (Fraction(1, 3), Fraction(0.1)), (Fraction(1), Fraction(-2))
        head.value[x], head.readout[x] = (Fraction(x),), ((Fraction(1),), Fraction(1, 2))
    doc = head.to_json()
    assert not list(validator.iter_errors(doc)) and load(json.dumps(doc)).phi_q == head.phi_q
    doc["tokens"]["01"]["readout"] = {"w": ["1/x"]}
    assert list(validator.iter_errors(doc))


def test_schemas_are_package_data():
    from kernelbounds import schemas

    assert {name: schemas.load(name)["$schema"] for name in schemas.NAMES}


def _v2_validator():
    from kernelbounds import schemas

    schema = schemas.load("certificate-v2")
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


BIG = 2_000_000  # bytes: the explicit heads at m >= 9 (jsonschema takes 4-18 s each); the slow suite has them


def _v2_files(big: bool) -> list:
    files = [p for p in sorted((ROOT / "certificates").glob("*.json")) if (p.stat().st_size > BIG) == big]
    return [p for p in files if json.loads(p.read_text())["version"] == 2]


def test_committed_v2_certificates_match_the_v2_schema():
    _match_the_v2_schema(_v2_files(big=False), {"lower-bound", "level-family", "explicit-head", "rank-one-infeasible"})


@pytest.mark.slow
def test_committed_big_v2_certificates_match_the_v2_schema():
    _match_the_v2_schema(_v2_files(big=True), {"explicit-head"})


def _match_the_v2_schema(files: list, kinds: set) -> None:
    validator = _v2_validator()
    assert kinds <= {json.loads(p.read_text())["kind"] for p in files}
    for path in files:
        errors = list(validator.iter_errors(json.loads(path.read_text())))
        assert not errors, f"{path.name}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_v2_schema_rejects_layout_errors_of_each_v2_kind():
    validator = _v2_validator()
    cases = [
        ("upper-any-m08-n4.json", lambda d: d["claims"].update(worst_error=0.5)),
        ("upper-any-m08-n4.json", lambda d: d["readout"].update(type="linear")),
        ("explicit-head-m04-n3-r2.json", lambda d: d["head"]["phi"][0].__setitem__(0, "1/x")),
        ("explicit-head-m04-n3-r2.json", lambda d: d["claims"].pop("value_dim")),
        ("rank-one-infeasible-m04-n3.json", lambda d: d["inequalities"][0].update(multiplier=0)),
        ("lower-position-independent-m64-n3.json", lambda d: d["claims"]["orbits"][0].update(size="126")),
        ("lower-position-independent-m64-n3.json", lambda d: d.pop("symmetry")),
        ("construction-tensor-m03-n3.json", lambda d: d.update(version=2)),
        ("extension-causal-m10-n3-r5.json", lambda d: d["base"].update(sha256="ABC")),
        ("extension-causal-m10-n3-r5.json", lambda d: d["edges"][0].append(9)),
        ("extension-causal-m10-n3-r5.json", lambda d: d["claims"].pop("rank")),
    ]
    for name, mutate in cases:
        doc = json.loads((ROOT / "certificates" / name).read_text())
        mutate(doc)
        assert list(validator.iter_errors(doc)), name
