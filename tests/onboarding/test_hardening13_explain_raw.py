"""`spec-debug explain` shows a command as it will run, without Jinja's `{% raw %}` markers.

A playbook checks the server container with `docker inspect --format '{{.State.Status}}'`;
the author wraps the Go template in `{% raw %}...{% endraw %}` so spec-debug leaves it alone.
The walkthrough printed the markers, which never reach the host, and a newcomer copying the
command into a shell got `{% raw %}` in docker's format string.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: container_check
steps:
  - id: container_up
    why: The SGLang container must be running before anything else is measured.
    run: echo '{% raw %}{{.State.Status}}{% endraw %}' {{ container }}
  - id: dashed
    run: |
      echo a {%- raw -%}   {{.Id}}   {%- endraw -%}   b
      echo '{% raw %}{{.State.Status}}{% endraw %}'
vars:
  container: sglang
"""


@pytest.fixture
def playbook(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PLAYBOOK)
    return path


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_explain_prints_the_command_without_raw_markers(playbook, fmt):
    result = run_cli("explain", str(playbook), "--format", fmt)
    assert result.code == 0, result.stderr
    assert "raw %}" not in result.stdout and "endraw" not in result.stdout, result.stdout
    assert "echo '{{.State.Status}}' {{ container }}" in result.stdout.replace("&#39;", "'")
    # The Go template is not a var spec-debug fills in: the walkthrough says so.
    assert "sent as written" in result.stdout


def test_the_command_explain_shows_is_the_command_that_runs(playbook, tmp_path):
    """With every var given, explain's command and the recorded command are the same text."""
    steps = json.loads(run_cli("explain", str(playbook), "--format", "json").stdout)["steps"]
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var", "container=sglang")
    assert result.code == 0, result.stderr
    _, record = only_run(tmp_path / "runs")
    ran = {s["id"]: s["command"] for s in record["steps"]}
    assert steps[0]["command"].replace("{{ container }}", "sglang") == ran["container_up"]
    assert steps[1]["command"] == ran["dashed"].rstrip("\n")
    assert record["steps"][1]["stdout"] == "a{{.Id}}b\n{{.State.Status}}\n"
