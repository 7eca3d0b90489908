"""`contains:`, `not_contains:` and `matches:` are compared with the output as written. A playbook
that wrote a var into one (`contains: "{{ served_model }}"`, Ansible's habit, where every string
of a task is a template) validated ok, and at run time the check looked for the braces: the
contains failed on every host whatever the server served, and a not_contains could never fail
(the run PASSED over the very value it was written to catch). Such a text is now refused where it
is written, with the that: expression that checks the value; pasted back, it runs as meant. A
`{{` that reads nothing the playbook defines (a chat template's `{{ messages }}` in a prompt
dump) is still text to look for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: served
vars:
  served_model: llama-3-8b
  port: 30000
steps:
  - id: models
    run: echo 'model=llama-3-8b port=30000 {{{{ "{{{{" }}}} messages }}}}'
    capture: [{{regex: 'model=(?P<model>\\S+)'}}]
  - id: check
    run: echo 'model=llama-3-8b port=30000'
    expect:
      - {key}: {text}
"""


def _write(tmp_path: Path, key: str, text: str) -> Path:
    path = tmp_path / "served.yaml"
    path.write_text(PLAYBOOK.format(key=key, text=json.dumps(text)), encoding="utf-8")
    return path


def _check_status(tmp_path: Path, playbook: Path) -> tuple[int, str]:
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return result.code, record["steps"][1]["status"]


@pytest.mark.parametrize(("key", "text", "meant", "status"), [
    # The value is in the output: contains must pass, not_contains must fail.
    ("contains", "{{ served_model }}", "served_model | string in stdout or served_model | string in stderr", "passed"),
    ("contains", "port={{ port }}", "'port=' ~ port in stdout or 'port=' ~ port in stderr", "passed"),
    ("contains", "{{ vars.port }}", "vars.port | string in stdout or vars.port | string in stderr", "passed"),
    ("not_contains", "model={{ facts.model }}",
     "'model=' ~ facts.model not in stdout and 'model=' ~ facts.model not in stderr", "failed"),
    ("matches", "^model={{ served_model }} ",
     "served_model | string in stdout or served_model | string in stderr", "passed"),
])
def test_a_var_written_into_a_compared_text_is_refused_with_the_check_that_works(
        tmp_path: Path, key: str, text: str, meant: str, status: str) -> None:
    playbook = _write(tmp_path, key, text)
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    first, hint = validated.stderr.splitlines()[:2]
    assert first.startswith(f"error: {playbook}:12:{9 + len(key) + 2}: {key}: in step 'check' is "), first
    assert f"{text!r} itself" in first and f"(at steps[1].expect[0].{key})" in first
    assert hint.endswith(f"write the expectation as that: {json.dumps(meant)}"), hint
    # The same run before validation refused it: the braces were looked for, not the value.
    fixed = playbook.read_text(encoding="utf-8").replace(f"{key}: {json.dumps(text)}", f"that: {json.dumps(meant)}")
    playbook.write_text(fixed, encoding="utf-8")
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    code, fixed_status = _check_status(tmp_path, playbook)
    assert (code, fixed_status) == ((0, "passed") if status == "passed" else (1, "failed"))


@pytest.mark.parametrize(("key", "text"), [
    ("contains", "{{ messages }}"),  # no var of the playbook: a chat template's text, looked for as written
    ("not_contains", "{{"),
    ("contains", "{% if %}"),
    ("matches", "port=\\d{2,}"),
])
def test_braces_that_read_nothing_of_the_playbook_stay_text(tmp_path: Path, key: str, text: str) -> None:
    playbook = _write(tmp_path, key, text)
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
