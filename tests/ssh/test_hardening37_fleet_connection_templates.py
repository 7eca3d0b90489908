"""Connection variables an inventory builds from its other vars, rendered as Ansible renders them.

`ansible_host: "{{ inventory_hostname }}.ib.cluster"`, `ansible_user: "{{ lab_user }}"` with
lab_user in group_vars/all.yml, `ansible_port: "{{ sshd_port }}"`: Ansible templates every
connection variable over the host's vars. spec-debug refused each as "a Jinja template, which
spec-debug does not evaluate" and stopped the run, while the same inventory's playbook vars were
rendered. A template that cannot render (an undefined name) is refused in one line naming the
host and the variable, never tried as a host literally named `{{ x }}`.

The host is real: the shared sshd, run through the CLI.
"""

from __future__ import annotations

import getpass
import json
import sys
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: fleet_connection_templates
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host was reached as the templates say
    run: echo "hello as $USER"
"""


def _inventory(tmp_path: Path, sshd: SshServer, client: ClientSetup, host_line: str) -> Path:
    (tmp_path / "group_vars").mkdir(exist_ok=True)
    (tmp_path / "group_vars" / "all.yml").write_text(
        f"lab_user: \"{getpass.getuser()}\"\n"
        f"lab_network: \"{sshd.address}\"\n"
        f"sshd_port: {sshd.port}\n"
        f"lab_key: {client.key.path}\n")
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "gpus:\n"
        "  vars:\n"
        "    ansible_user: \"{{ lab_user }}\"\n"
        "    ansible_port: \"{{ sshd_port }}\"\n"
        "    ansible_ssh_private_key_file: \"{{ lab_key }}\"\n"
        "  hosts:\n"
        f"    gpu01:\n      {host_line}\n")
    return inventory


def _run(cli: Callable[..., Any], tmp_path: Path, inventory: Path) -> Any:
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(PLAYBOOK)
    return cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))


def test_connection_variables_built_from_other_vars_reach_the_host(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, sshd, client, "ansible_host: \"{{ lab_network }}\"")
    done = _run(cli, tmp_path, inventory)
    assert done.code == 0, done.stdout + done.stderr
    (run,) = (tmp_path / "runs").glob("*/run.json")
    [host] = json.loads(run.read_text())["hosts"]
    assert (host["name"], host["status"], host["address"]) == ("gpu01", "passed", sshd.address), host


def test_a_template_that_cannot_render_is_refused_naming_host_and_variable(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, sshd, client, "ansible_host: \"{{ inventory_hostname }}.{{ ib_domain }}\"")
    done = _run(cli, tmp_path, inventory)
    said = " ".join((done.stdout + done.stderr).split())
    assert done.code == 2, said
    assert "host gpu01: ansible_host: " in said and "'ib_domain' is undefined" in said, said
    assert "Traceback" not in said
    assert not list((tmp_path / "runs").glob("*/run.json"))  # refused before any host was tried


def test_a_local_host_whose_interpreter_is_ansible_playbook_python_runs(
        cli: Callable[..., Any], tmp_path: Path) -> None:
    """`localhost ansible_connection=local ansible_python_interpreter="{{ ansible_playbook_python }}"`,
    as inventories write the control machine: the Python running Ansible there, running
    spec-debug here. It stopped the run as a Jinja template."""
    inventory = tmp_path / "hosts"
    inventory.write_text("[control]\nlocalhost ansible_connection=local "
                         "ansible_python_interpreter=\"{{ ansible_playbook_python }}\"\n")
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(PLAYBOOK.replace('steps:', 'vars:\n  python: python3\nsteps:').replace(
        'echo "hello as $USER"', 'command {{ python }} -c "import sys; print(sys.executable)"'))
    done = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))
    assert done.code == 0, done.stdout + done.stderr
    (run,) = (tmp_path / "runs").glob("*/run.json")
    [host] = json.loads(run.read_text())["hosts"]
    assert (host["name"], host["status"]) == ("localhost", "passed"), host
    assert host["vars"]["python"] == sys.executable, host["vars"]
