"""The JSON Schema that `spec-debug schema` writes for editors (yaml-language-server), checked
with a JSON Schema validator against playbooks that `playbooks validate` accepts.

docs/playbooks.md: "A code alone names the catalog's finding: `finding: SD201`, `findings:
[SD101]`". With the schema saved as the docs say, VS Code's YAML extension underlined both as
errors ("Incorrect type. Expected object"): the schema had only the mapping form."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.playbook.loader import load_playbook_text, shipped_playbooks_dir

SHORT_FORMS = """\
name: num_steps_check
vars:
  cmdline: ""
steps:
  - id: num_steps
    run: echo {{ cmdline }}
    capture: [{regex: '--speculative-num-steps[ =](?P<num_steps>\\d+)', type: int}]
    expect:
      - that: facts.num_steps is not defined or facts.num_steps > 1
        finding: SD101
  - id: layers
    run: echo layers
    expect: [{contains: layers}]
    findings: [SD201, {code: SD900, title: Custom}]
"""


@pytest.fixture(scope="module")
def validator(tmp_path_factory) -> jsonschema.Validator:
    out = tmp_path_factory.mktemp("schema") / "playbook.schema.json"
    result = CliRunner().invoke(app, ["schema", "-o", str(out)])
    assert result.exit_code == 0, result.output
    schema = json.loads(out.read_text())
    return jsonschema.validators.validator_for(schema)(schema)


def test_the_short_finding_forms_are_valid_under_the_schema(validator):
    load_playbook_text(SHORT_FORMS, "p.yaml")  # spec-debug accepts it
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(yaml.safe_load(SHORT_FORMS))]
    assert errors == []


def test_the_schema_still_refuses_what_validation_refuses(validator):
    bad = yaml.safe_load(SHORT_FORMS.replace("finding: SD101", "finding: sd-101").replace("SD201", "201"))
    paths = sorted(str(list(e.absolute_path)) for e in validator.iter_errors(bad))
    assert paths == ["['steps', 0, 'expect', 0, 'finding']", "['steps', 1, 'findings', 0]"]


@pytest.mark.parametrize("path", sorted(Path(shipped_playbooks_dir()).glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_playbooks_are_valid_under_the_schema(validator, path):
    assert [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text()))] == []
