"""`run --step`: a user who skips the first step and quits at the second was told "host local
aborted before its first step", while the record holds that step (skipped by the user) and the
last line says every step was skipped. A step skipped at the prompt never reaches the console's
step_finished (the prompt says "skipped" itself), so the console thought the host never reached
a step; it now asks the record."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PLAYBOOK = """\
name: three
steps:
  - id: first
    run: echo one
  - id: second
    run: echo two
  - id: third
    run: echo three
"""


def _step(tmp_path, answers: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step"],
                          capture_output=True, text=True, cwd=tmp_path, input=answers,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    record = json.loads((next((tmp_path / "runs").iterdir()) / "run.json").read_text())
    return proc, record


def test_skip_then_quit_does_not_say_the_host_never_reached_a_step(tmp_path):
    proc, record = _step(tmp_path, "s\nq\n")
    said = proc.stdout + proc.stderr
    assert proc.returncode == 3, said
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("first", "skipped")]
    assert "before its first step" not in said
    assert "first skipped (your choice)" in said


def test_quit_at_the_first_prompt_still_says_so(tmp_path):
    proc, record = _step(tmp_path, "q\n")
    said = proc.stdout + proc.stderr
    assert proc.returncode == 3, said
    assert record["steps"] == []
    assert "host local aborted before its first step: quit in step-through mode" in said
