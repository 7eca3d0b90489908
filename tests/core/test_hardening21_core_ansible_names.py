"""An Ansible user's first playbook here: `{{ inventory_hostname }}` in a command,
`when: inventory_hostname == 'gpu01'`, `{{ lookup('env', 'HF_TOKEN') }}`, `{{ item }}`.

Each was refused as an undefined variable with "declare it under vars:" (which would have sent
the empty value to the host), and in `when:` with "quote it: 'inventory_hostname' == 'gpu01'",
which makes the step skip on every host. The hint now says what the name is written as here.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _validate(tmp_path, step: str) -> str:
    (tmp_path / "smoke.yaml").write_text(f"name: smoke\nvars:\n  model: llama\nsteps:\n  - id: gpu\n{step}")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "smoke.yaml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    return " ".join((proc.stdout + proc.stderr).split())


@pytest.mark.parametrize(("step", "hint"), [
    ("    run: echo {{ inventory_hostname }}\n",
     "inventory_hostname is Ansible's; the host's name is host here: {{ host }} in a command, host in when:"),
    ("    run: nvidia-smi -L\n    when: inventory_hostname == 'gpu01'\n",
     "inventory_hostname is Ansible's; the host's name is host here"),
    ("    run: echo {{ ansible_hostname }}\n", "ansible_hostname is Ansible's; the host's name is host here"),
    ("    run: echo {{ lookup('env', 'HF_TOKEN') }}\n", "lookup is Ansible's; there are no lookups: pass the value with --var"),
    ("    run: ls {{ item }}\n", "item is Ansible's; steps have no loops"),
])
def test_ansible_names_say_what_to_write_here(tmp_path, step, hint):
    said = _validate(tmp_path, step)
    assert f"hint: {hint}" in said
    assert "declare it under vars" not in said and "quote it" not in said


def test_a_var_of_that_name_is_used_as_declared(tmp_path):
    (tmp_path / "smoke.yaml").write_text(
        "name: smoke\nvars:\n  item: config.json\nsteps:\n  - id: cat\n    run: cat {{ item }}\n")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "smoke.yaml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
