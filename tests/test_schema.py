"""Every committed certificate validates against the written JSON Schema."""

import json
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[1]


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
