"""`steps: !include steps.yaml` (PyYAML-include, Home Assistant and some CI tools read other files
this way) was told "a playbook holds plain data: remove the tag", and `<<: !include defaults.yaml`
"write <<: *name": neither said that a playbook is one file, nor where the other file's content
goes. Each now gets the include hint naming the file; any other tag keeps its message."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

NO_INCLUDES = "  hint: a playbook is one file, with no includes: "


@pytest.mark.parametrize(("text", "error", "hint"), [
    ("name: x\nsteps: !include steps.yaml\n",
     "2:8: YAML tag '!include' is not allowed in a playbook (at steps)",
     "copy the steps of steps.yaml under steps:, or run it as a playbook of its own (spec-debug run steps.yaml)"),
    ("name: x\nvars: !include vars.yaml\nsteps:\n  - id: a\n    run: echo a\n",
     "2:7: YAML tag '!include' is not allowed in a playbook (at vars)",
     "pass vars.yaml when the playbook runs: --var-file vars.yaml"),
    ("name: x\nsteps:\n  - <<: !include defaults.yaml\n    id: a\n    run: echo a\n",
     "3:9: a merge key (<<) takes a mapping, or a list of mappings (at steps[0])",
     "write the shared keys of defaults.yaml on the first step that uses them, with an anchor "
     "(- <<: &step_defaults {timeout: 60}), then <<: *step_defaults on the others"),
])
def test_an_include_tag_gets_the_include_hint(write_playbook, text: str, error: str, hint: str) -> None:
    playbook = write_playbook(text)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines() == [f"error: {playbook}:{error}", NO_INCLUDES + hint]


def test_another_tag_keeps_its_hint(write_playbook) -> None:
    playbook = write_playbook("name: x\nsteps:\n  - id: a\n    run: !custom echo a\n")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.stderr.splitlines()[1] == "  hint: a playbook holds plain data: remove the tag (quote the value if it is text)"
