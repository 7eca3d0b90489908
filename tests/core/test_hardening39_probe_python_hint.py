"""A probe step whose host has no such Python says where that Python is named.

The hint was always "name the host's Python with --var python=/path/to/python3". For a step
with `with: python: "{{ venv }}/bin/python"` the run then refused `--var python=...` as "not a
var of playbook", and for a path written in the step no --var could help. The hint now names
the var the step's Python is made of, or the step to correct. Through the real CLI on --host
local; following the hint runs the probe.
"""

from __future__ import annotations

import os
import sys

from tests.conftest import only_run, run_cli

VENV_PLAYBOOK = """\
name: py
vars:
  venv: /nonexistent/venv
steps:
  - id: info
    probe: host_info
    with:
      python: "{{ venv }}/bin/python"
"""


def _message(tmp_path, playbook_text: str, *args: str) -> tuple[str, str]:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(playbook_text)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), *args)
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    return step["status"], step["message"] or ""


def test_the_hint_names_the_var_the_steps_python_is_made_of(tmp_path):
    status, message = _message(tmp_path, VENV_PLAYBOOK)
    assert status == "error" and "exit code 127" in message
    assert "pass --var venv=... to match the host" in message, message
    assert "--var python" not in message
    # Following it: a venv whose bin/python is this interpreter.
    venv = tmp_path / "env"
    (venv / "bin").mkdir(parents=True)
    os.symlink(sys.executable, venv / "bin" / "python")
    (tmp_path / "runs").rename(tmp_path / "first")
    status, _ = _message(tmp_path, VENV_PLAYBOOK, "--var", f"venv={venv}")
    assert status == "passed"


def test_a_python_written_in_the_step_is_corrected_in_the_playbook(tmp_path):
    status, message = _message(tmp_path, "name: py\nsteps:\n  - id: info\n    probe: host_info\n"
                                         "    with:\n      python: /opt/none/bin/python3\n")
    assert status == "error"
    assert "with: python: '/opt/none/bin/python3': correct it in the playbook (step 'info')" in message, message
    assert "--var" not in message


def test_the_python_var_keeps_its_hint(tmp_path):
    status, message = _message(tmp_path, "name: py\nvars:\n  python: python3\nsteps:\n  - id: info\n    probe: host_info\n"
                                         "    with:\n      python: '{{ python }}'\n", "--var", "python=/nonexistent/python3")
    assert status == "error" and message.endswith("; name the host's Python with --var python=/path/to/python3"), message
