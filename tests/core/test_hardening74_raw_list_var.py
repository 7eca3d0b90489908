"""`{{ layers | raw }}` in a `run:` (unquoted on purpose, e.g. inside a JSON the author quotes
himself) wrote a list var as Python's repr, `['2', '16']` with True/None inside, while the
same var without `| raw` is written as JSON since 800ca7c0. `| raw` now writes the value's
text as a command reads it: a list or mapping as JSON, a bool as true/false."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """
name: rawlist
vars:
  layers: [2, 16, 29]
  spec: {method: eagle3, enabled: true}
steps:
  - id: show
    run: "echo '{\\"layers\\": {{ layers | raw }}, \\"spec\\": {{ spec | raw }}}'"
"""


def test_a_list_under_raw_is_written_as_json(tmp_path):
    playbook = tmp_path / "rawlist.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stderr
    _, record = only_run(tmp_path / "runs")
    [step] = record["steps"]
    assert step["stdout"] == '{"layers": [2, 16, 29], "spec": {"method": "eagle3", "enabled": true}}\n'
