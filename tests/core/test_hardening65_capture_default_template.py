"""A capture's `default:` is the fact's value as written. `default: "{{ port }}"` (the var as the
fallback, Ansible's habit) validated ok; where the output named no port the fact was the text
'{{ port }}' itself, `type: int` or not, and the next step ran `curl localhost:'{{ port }}'/health`,
PASSED. Such a default is now refused at its line, with the `| default(...)` that gives the var
where the fact is read; pasted in, the command gets the var's value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: server_port
vars:
  port: 30000
steps:
  - id: find_port
    run: echo 'no port in this log'
    capture:
      - regex: 'port=(?P<server_port>\\d+)'
        type: int
        default: {default}
  - id: health
    run: echo curl localhost:{{{{ facts.server_port }}}}/health
"""


@pytest.mark.parametrize("default", ['"{{ port }}"', '"{{ vars.port }}"', '["{{ port }}"]'])
def test_a_templated_capture_default_is_refused_with_the_default_filter_that_works(tmp_path: Path, default: str) -> None:
    playbook = tmp_path / "server_port.yaml"
    playbook.write_text(PLAYBOOK.format(default=default), encoding="utf-8")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    first, hint = validated.stderr.splitlines()[:2]
    assert first.startswith(f"error: {playbook}:10:18: the default of a capture in step 'find_port' is a value as written"), first
    assert "facts.server_port would be" in first and first.endswith("(at steps[0].capture[0].default)"), first
    expression = "vars.port" if "vars." in default else "port"
    fix = f"{{{{ facts.server_port | default({expression}) }}}}"
    assert hint.endswith(f"give it where the fact is read: {fix}"), hint
    # The fix as the hint gives it: the default left out, the var given where the fact is read.
    fixed = PLAYBOOK.format(default="0").replace("        default: 0\n", "").replace("{{ facts.server_port }}", fix)
    playbook.write_text(fixed, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][1]["stdout"] == "curl localhost:30000/health\n"


def test_a_default_with_braces_that_read_no_var_stays_the_text(tmp_path: Path) -> None:
    playbook = tmp_path / "server_port.yaml"
    playbook.write_text(PLAYBOOK.format(default='"{{ unset }}"'), encoding="utf-8")
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
