"""Every committed certificate validates against the written JSON Schema."""

import json
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[1]


def test_committed_certificates_match_the_schema():
    schema = json.loads((ROOT / "docs" / "certificate-v1.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted((ROOT / "certificates").glob("*.json"))
    assert files
    for path in files:
        doc = json.loads(path.read_text())
        if doc["version"] != 1:  # v2 kinds are specified in docs/certificate-format-v2.md
            continue
        errors = list(validator.iter_errors(doc))
        assert not errors, f"{path.name}: {errors[0].message}"


def test_schema_rejects_a_float_rational():
    schema = json.loads((ROOT / "docs" / "certificate-v1.schema.json").read_text())
    doc = json.loads((ROOT / "certificates" / "construction-tensor-m03-n3.json").read_text())
    doc["claims"]["worst_error"] = 0.2857
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
