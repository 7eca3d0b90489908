"""An author used to GitHub Actions writes `${{ gpu }}` in a command. Jinja fills `{{ gpu }}`
and leaves the `$`, so with gpu=0 the shell ran `nvidia-smi -i $0`: the shell's own name. The
step passed on the wrong GPU (or on nothing), and validation said ok."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ACTIONS_HABIT = """\
name: gpu_check
vars:
  gpu: "0"
  port: "30000"
steps:
  - id: which_gpu
    run: |
      echo checking
      echo "gpu=${{ gpu }} port=${{ port }}"
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_validate_points_at_the_dollar_inside_the_run_block(tmp_path):
    (tmp_path / "p.yaml").write_text(ACTIONS_HABIT)
    proc = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    message = " ".join(proc.stderr.split())
    assert "p.yaml:9:17:" in message  # line 9 of the file, at the `$`
    assert "step 'which_gpu' writes ${{ gpu }} (GitHub Actions' expression syntax)" in message
    assert "hint: drop the $: write {{ gpu }}" in message
    assert "Traceback" not in proc.stderr


def test_run_refuses_it_instead_of_running_the_shell_name_as_the_gpu(tmp_path):
    (tmp_path / "p.yaml").write_text(ACTIONS_HABIT)
    proc = _cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    # Before: exit 0 and the step's output was "gpu=/bin/bash port=0000".
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert not list(tmp_path.glob("runs/*/run.json"))
    fixed = ACTIONS_HABIT.replace("${{", "{{")
    (tmp_path / "p.yaml").write_text(fixed)
    proc = _cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(next(tmp_path.glob("runs/*/run.json")).read_text())
    assert "gpu=0 port=30000" in record["steps"][0]["stdout"]


def test_a_var_default_with_the_habit_is_named_too(tmp_path):
    (tmp_path / "p.yaml").write_text('name: p\nvars:\n  base: /models\n  draft: "${{ base }}/draft"\n'
                                     "steps:\n  - id: a\n    run: ls {{ draft }}\n")
    proc = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert proc.returncode == 2
    assert "p.yaml:4:11: var 'draft' writes ${{ base }}" in " ".join(proc.stderr.split())


@pytest.mark.parametrize("run", [
    # a workflow file written by a heredoc: raw text reaches the file as written
    "|\n      cat > wf.yml <<'X'\n      {% raw %}run: echo ${{ matrix.gpu }}{% endraw %}\n      X\n",
    # the shell's own ${VAR} and a $ that is not right before the value
    'echo ${HOME} $PATH "$ {{ gpu }}" {{ gpu }}$',
    # how distill quotes a `{{` it cannot put in a raw block: a constant, not a var
    "\"echo ${{ '{{' | raw }} github.sha }} {% raw %}{% endraw %}\"",
])
def test_shell_dollars_and_raw_text_still_validate(tmp_path, run):
    (tmp_path / "p.yaml").write_text(f"name: p\nvars:\n  gpu: '0'\nsteps:\n  - id: a\n    run: {run}\n")
    proc = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
