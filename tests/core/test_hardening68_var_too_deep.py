"""A `--var` whose JSON value nests thousands of levels deep is refused in one line, as a
--var-file that deep is (playbook/yaml_nodes.py, MAX_DEPTH: "the YAML nests more than 64 levels
deep").

`--var items=[[[...]]]` (500 levels: a generated value, a paste gone wrong) ended `spec-debug run`
in a RecursionError traceback from the masking of secrets (redact.redact_value, called by Run on
every var), and 2,000 levels broke json.loads itself; the value of a text var with an empty
default is guessed from its text as well, so it crashed the same way."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: lv
vars:
  items: []
  text: ""
steps:
  - id: a
    run: echo {{ items | length }} {{ text }}
"""


@pytest.mark.parametrize("name", ["items", "text"])
@pytest.mark.parametrize("depth", [500, 2000])
def test_a_var_nested_too_deep_is_refused_before_any_host(tmp_path, name, depth):
    playbook = tmp_path / "lv.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    value = "[" * depth + "]" * depth
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"{name}={value}")
    assert result.code == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr, result.stderr[-2000:]
    said = " ".join(result.stderr.split())
    assert said.startswith(f"error: --var {name}=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                           f"... ({2 * depth} characters): the value nests lists and objects within each other more "
                           "than 64 levels deep"), said
    assert not out.exists() or not any(out.iterdir())


def test_a_var_at_the_depth_a_var_file_takes_still_runs(tmp_path):
    playbook = tmp_path / "lv.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var",
                     "items=" + "[" * 60 + "]" * 60, "--json")
    assert result.code == 0, result.stderr[-2000:]
    assert '"stdout": "1 \\n"' in result.stdout
