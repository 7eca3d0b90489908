"""Ansible's reuse keys in a playbook: `import_playbook:` (a play list or a top key),
`include:`, and a step's `include_tasks:` / `import_tasks:` (docs.ansible.com, playbooks_reuse).
A playbook here is one file; the error said 'unknown key' with the list of allowed keys, or for
a play list of imports, no hint at all. Now the hint says there are no includes and what to do
with the file named. Through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _validate(tmp_path, text: str) -> str:
    (tmp_path / "p.yaml").write_text(text)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "p.yaml"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "400"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    return " ".join(proc.stderr.split())


@pytest.mark.parametrize(("text", "where", "named"), [
    ("- import_playbook: gpu_checks.yml\n- hosts: gpus\n  tasks: []\n", "p.yaml:1:1", "gpu_checks.yml"),
    ("name: v\ninclude: common.yaml\nsteps:\n  - id: s\n    run: echo\n", "p.yaml:2:1", "common.yaml"),
    ("name: v\nsteps:\n  - id: a\n    import_tasks: tasks/nvidia.yml\n", "p.yaml:4:5", "tasks/nvidia.yml"),
    ("name: v\nsteps:\n  - include_tasks: tasks/nvidia.yml\n", "p.yaml:3:5", "tasks/nvidia.yml"),
])
def test_an_include_is_told_there_are_none_and_what_to_do(tmp_path, text, where, named):
    said = _validate(tmp_path, text)
    assert f"error: {where}:" in said
    assert (f"hint: a playbook is one file, with no includes: copy the steps of {named} under steps:, "
            f"or run it as a playbook of its own (spec-debug run {named})") in said
