"""A `{{` left unclosed, the Jinja typo every new playbook author makes once.

`run: tail -n 2000 {{ server_log }` failed validation with Jinja's "unexpected '}'" at the
column where the value starts, and no hint: on a launch command line holding five templates
the author had to find the brace alone. The error now points at the `{{` and says how to close
it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app

HEAD = "name: logs\nvars:\n  server_log: /var/log/sglang.log\n  port: \"30000\"\nsteps:\n  - id: tail\n"


@pytest.mark.parametrize("run_lines, where, fixed", [
    # one brace short, after a closed template on the same line
    (["    run: curl -s 127.0.0.1:{{ port }}/health && tail -n 2000 {{ server_log }"], (7, 62), "{{ server_log }}"),
    # quoted, with the closing braces forgotten altogether
    (["    run: 'grep -c \"accept len\" {{ server_log'"], (7, 32), "{{ server_log }}"),
    # the same text closed earlier on the line does not count
    (["    run: echo {{ port }} {{ port }"], (7, 26), "{{ port }}"),
    # in a script: the line of the script, and the column there
    (["    run: |", "      echo {{ port }}", "      tail -n 100 {{ server_log }}", "      grep accept {{ server_log }",
      "      echo done"], (10, 19), "{{ server_log }}"),
])
def test_an_unclosed_expression_is_pointed_at_with_the_fix(tmp_path, run_lines, where, fixed):
    path = tmp_path / "logs.yaml"
    path.write_text(HEAD + "\n".join(run_lines) + "\n")
    result = CliRunner().invoke(app, ["playbooks", "validate", str(path)])
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())  # rich wraps at the terminal's width
    line, column = where
    assert f"logs.yaml:{line}:{column}: template syntax error in step 'tail'" in output
    assert f"hint: this '{{{{' is not closed: write {fixed}" in output
    assert "Traceback" not in result.output


def test_closed_templates_and_raw_blocks_still_validate(tmp_path):
    path = tmp_path / "logs.yaml"
    path.write_text(HEAD + "    run: echo {% raw %}{{.State.Status}{% endraw %} {{ port }}\n")
    result = CliRunner().invoke(app, ["playbooks", "validate", str(path)])
    assert result.exit_code == 0, result.output
