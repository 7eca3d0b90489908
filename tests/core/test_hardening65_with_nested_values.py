"""A probe's `with:` value may be a list or a mapping (models.Step.with_: VarValue), and the
runner renders every string in it (templating.render_value). Validation checked only string
values: `with: {draft_models: ["{{ draft_model }}", "{{ draft_modle }}"]}` passed `playbooks
validate`, then failed the step on every host mid-run ("with: undefined variable: 'draft_modle'
is undefined", SD003). Every string in a with: value is now checked where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: configs
vars:
  draft_model: /models/draft
  python: python3
steps:
  - id: configs
    probe: model_configs
    with:
      python: "{{{{ python }}}}"
      {value}
  - id: later
    run: echo x
    capture: [{{regex: '(?P<later>x)'}}]
"""


@pytest.mark.parametrize(("value", "where", "message"), [
    ('draft_models: ["{{ draft_model }}", "{{ draft_modle }}"]', "10:43", "undefined variable 'draft_modle' in step 'configs'"),
    ('extra: {env: {DRAFT: "{{ draft_modle }}"}}', "10:28", "undefined variable 'draft_modle' in step 'configs'"),
    ('extra: ["{{ facts.later }}"]', "10:15", "step 'configs' reads facts.later in with:, but only a later step captures it"),
])
def test_a_template_inside_a_list_or_mapping_with_value_is_checked_where_it_is_written(
        tmp_path: Path, value: str, where: str, message: str) -> None:
    playbook = tmp_path / "configs.yaml"
    playbook.write_text(PLAYBOOK.format(value=value), encoding="utf-8")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    first = validated.stderr.splitlines()[0]
    assert first.startswith(f"error: {playbook}:{where}: {message}"), first
