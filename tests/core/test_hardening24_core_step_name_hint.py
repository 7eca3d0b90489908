"""Ansible's `- name: ...` on a step, in a playbook whose steps have ids already (the usual
port: `- id: s1` added, `name:` kept), and a non-ASCII title or id (`Prüfe die GPU`). The hint
said 'give it an id' to a step that had one, and suggested ids with the letters cut out
(`pr_fe_die_gpu`, `pr_fung_gpu`). Through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _validate(tmp_path, steps: str) -> str:
    (tmp_path / "p.yaml").write_text("name: t\nsteps:\n" + steps)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "p.yaml"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "400"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    return " ".join(proc.stderr.split())


def test_a_step_with_an_id_is_told_to_rename_name_only(tmp_path):
    said = _validate(tmp_path, "  - id: gpu\n    name: Check the GPU\n    run: nvidia-smi\n")
    assert "p.yaml:4:5: unknown key 'name'" in said
    assert "hint: a step's name is its title: write title: in place of name:" in said
    assert "give it an id" not in said


@pytest.mark.parametrize(("steps", "suggested"), [
    ("  - name: Prüfe die GPU\n    run: nvidia-smi\n", "(e.g. id: prufe_die_gpu)"),
    ("  - id: Prüfung-GPU\n    run: nvidia-smi\n", "write id: prufung_gpu"),
])
def test_a_suggested_id_keeps_the_accented_letters(tmp_path, steps, suggested):
    said = _validate(tmp_path, steps)
    assert suggested in said
