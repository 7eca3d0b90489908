"""A var that holds a whole command line, run as `{{ server_cmd }}`, says to write `| raw`.

Values are shell-quoted as one word (docs/playbooks.md), so `run: "{{ launch }} --port 30000"`
with `launch: python3 -m sglang.launch_server` asks the shell for one program named by the
whole line: exit 127, and the step said only "exit code 127".
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """\
name: launch_from_var
description: a command line kept in a var
vars:
  launch: python3 -c 'print(42)'
steps:
  - id: quoted
    run: "{{ launch }} && echo done"
  - id: quoted_with_expect
    run: "{{ vars.launch }}"
    expect:
      - exit_code: 0
  - id: raw
    run: "{{ launch | raw }}"
  - id: missing_program
    run: no-such-program-h10 --version
"""


def test_a_command_line_in_a_var_names_the_var_and_the_fix(tmp_path, write_playbook):
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(PLAYBOOK)), "--host", "local", "--out", str(out), "--json")
    assert "Traceback" not in result.stderr
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    for step_id in ("quoted", "quoted_with_expect"):
        assert steps[step_id]["exit_code"] == 127
        assert "var 'launch' holds a whole command line" in steps[step_id]["message"], steps[step_id]["message"]
        assert "{{ launch | raw }}" in steps[step_id]["message"]
    assert steps["raw"]["status"] == "passed" and steps["raw"]["stdout"] == "42\n"
    # A program that is simply missing is not blamed on a var.
    assert steps["missing_program"]["message"] == "exit code 127"
