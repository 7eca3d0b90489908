"""An inventory that sets a playbook var from the controller's environment, as Ansible
inventories do (`gpu1 hf_token="{{ lookup('env', 'HF_TOKEN') }}"`), stopped the whole run:
"host gpu1: inventory var hf_token: undefined variable in expression ...: 'lookup' is
undefined", although the same inventory's connection variables read that lookup
(`ansible_user: "{{ lookup('env', 'USER') }}"`). So did a connection variable built from a var
that reads it (`ansible_user: "{{ lab_user }}"`, `lab_user: "{{ lookup('env', 'USER') }}"`).
Now both read it as Ansible does (lib/ansible/plugins/lookup/env.py): a playbook var gets the
variable's value, masked in the record as any secret's, or '' when it is unset, which a
`requires:` then names with what was written; a connection variable still refuses an unset
one, naming the variable. Real `spec-debug run -i` runs (local hosts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = ('name: q\nvars:\n  hf_token: ""\n  model_dir: /models\n'
            'steps:\n  - id: s\n    requires: [hf_token]\n    run: echo "{{ hf_token | length }} {{ model_dir }}"\n')
TOKEN = "hf_" + "QxWv7" * 7


def _run(tmp_path: Path, inventory: str, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text(inventory)
    env = {k: v for k, v in os.environ.items() if k not in ("HF_TOKEN", "LAB_USER")}
    env.update(PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1", COLUMNS="250", NO_COLOR="1", **environ)
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "hosts.ini", "-o", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)


def _step(tmp_path: Path) -> dict:
    [step] = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())["steps"]
    return step


def test_a_playbook_var_the_inventory_reads_from_the_environment(tmp_path: Path) -> None:
    inventory = ("[gpus]\ngpu1 ansible_connection=local hf_token=\"{{ lookup('env', 'HF_TOKEN') }}\" "
                 "model_dir=\"{{ lookup('ansible.builtin.env', 'HOME') }}/models\"\n")
    proc = _run(tmp_path, inventory, {"HF_TOKEN": TOKEN, "HOME": "/home/lab"})
    assert proc.returncode == 0, proc.stderr  # was 2: "'lookup' is undefined"
    step = _step(tmp_path)
    assert (step["status"], step["stdout"]) == ("passed", f"{len(TOKEN)} /home/lab/models\n")
    # The token is a secret by its name: nowhere in the run's files.
    assert not [p for p in (tmp_path / "runs").rglob("*") if p.is_file() and TOKEN in p.read_text(errors="replace")]


def test_an_unset_variable_gives_an_empty_value_a_requires_names(tmp_path: Path) -> None:
    inventory = "[gpus]\ngpu1 ansible_connection=local hf_token=\"{{ lookup('env', 'HF_TOKEN') }}\"\n"
    proc = _run(tmp_path, inventory, {})
    assert proc.returncode == 0, proc.stderr
    step = _step(tmp_path)
    assert (step["status"], step["message"]) == (
        "skipped", "skipped: hf_token is empty (written \"{{ lookup('env', 'HF_TOKEN') }}\") in the inventory "
                   "(hosts.ini:2): give it a value there, or pass --var hf_token=... to run this step")


def test_a_connection_variable_built_from_a_var_that_reads_the_environment(tmp_path: Path) -> None:
    inventory = ("[gpus]\ngpu1 ansible_connection=local ansible_user=\"{{ lab_user }}\" "
                 "lab_user=\"{{ lookup('env', 'LAB_USER') }}\" hf_token=x\n")
    proc = _run(tmp_path, inventory, {"LAB_USER": "svc-bench"})
    assert proc.returncode == 0, proc.stderr  # was 2: "lab_user: ...: 'lookup' is undefined"
    assert _step(tmp_path)["status"] == "passed"
    (tmp_path / "runs").rename(tmp_path / "first")
    proc = _run(tmp_path, inventory, {})
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        "error: hosts.ini: host gpu1: lab_user reads $LAB_USER (\"{{ lookup('env', 'LAB_USER') }}\"), which is not set")
