"""Ansible's `omit` and `ansible_env` in a step's command.

Before: `--tp {{ tp | default(omit) }}`, Ansible's way to leave an option out, and `{{
ansible_env.HOME }}` were refused as "undefined variable 'omit'" with the hint "declare it
under vars: (or use facts.NAME for a captured fact)": declaring omit under vars would write its
value into the command. Now the hint says they are Ansible's and what to write here: the flag
under an `{% if %}`, and the shell's own $HOME; and the `{% if %}` way runs.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _validate(write_playbook, run: str) -> tuple[int, str]:
    playbook = write_playbook(f"name: t\nvars:\n  tp: ''\nsteps:\n  - id: serve\n    run: {run}\n")
    result = run_cli("playbooks", "validate", str(playbook))
    assert "Traceback" not in result.stderr
    return result.code, " ".join((result.stdout + result.stderr).split())


@pytest.mark.parametrize("run, said", [
    ("echo --tp {{ tp | default(omit) }}",
     "undefined variable 'omit' in step 'serve' (at steps[0].run) hint: omit is Ansible's; it leaves a module's "
     "option out, and a command has none: write the flag where the value is set, "
     "{% if NAME %}--flag {{ NAME }}{% endif %}"),
    ("ls {{ ansible_env.HOME }}",
     "undefined variable 'ansible_env' in step 'serve' (at steps[0].run) hint: ansible_env is Ansible's; the host's "
     "environment is the shell's here: write $HOME, $PATH in the command"),
])
def test_an_ansible_special_name_gets_the_way_here(write_playbook, run, said):
    code, message = _validate(write_playbook, run)
    assert code == 2 and ":6:" in message and message.endswith(said), message


def test_the_way_given_runs(write_playbook, tmp_path):
    playbook = write_playbook("name: t\nvars:\n  tp: ''\nsteps:\n  - id: serve\n"
                              "    run: echo start {% if tp %}--tp {{ tp }}{% endif %} end\n")
    outputs = []
    for given in ([], ["--var", "tp=2"]):
        ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / f"runs{len(given)}"), "--json",
                      *given)
        outputs += [step["stdout"] for step in json.loads(ran.stdout)["steps"]]
    assert outputs == ["start end\n", "start --tp 2 end\n"]
