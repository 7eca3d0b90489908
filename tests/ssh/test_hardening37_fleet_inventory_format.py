"""An inventory file without a YAML extension (`hosts`, `inventory`) read in the format it is in.

Ansible tries its yaml plugin before the INI one on such a file and keeps it when it reads as
a mapping (ansible/ansible: lib/ansible/plugins/inventory/yaml.py, verify_file and parse).
spec-debug guessed from the first line alone: a YAML inventory whose first line carries a
comment (`all:   # the lab`), a flow mapping (`all: {hosts: ...}`) or JSON (ansible-inventory
--list saved as `hosts`) was read as INI, and refused as "expected key=value after the host
name" or, worse, run on hosts named `all:`, `hosts:` and `gpu01:`.

The hosts are real: the shared sshd, run through the CLI.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: fleet_format
description: one shell step per host
vars:
  team: nobody
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands with its vars
    run: echo "team={{ team }} on {{ host }}"
"""


def _yaml_with_comment(sshd: SshServer, client: ClientSetup) -> str:
    return ("all:   # the lab\n"
            "  vars:\n"
            "    team: lab\n"
            f"    ansible_ssh_private_key_file: {client.key.path}\n"
            "  hosts:\n"
            "    gpu01:\n"
            f"      ansible_host: {sshd.address}\n"
            f"      ansible_port: {sshd.port}\n")


def _flow_yaml(sshd: SshServer, client: ClientSetup) -> str:
    return ("# the lab\n"
            f"all: {{vars: {{team: lab, ansible_ssh_private_key_file: '{client.key.path}'}}, "
            f"hosts: {{gpu01: {{ansible_host: {sshd.address}, ansible_port: {sshd.port}}}}}}}\n")


def _listed_json(sshd: SshServer, client: ClientSetup) -> str:
    return json.dumps({
        "_meta": {"hostvars": {"gpu01": {"ansible_host": sshd.address, "ansible_port": sshd.port}}},
        "all": {"children": ["gpus"], "vars": {"team": "lab", "ansible_ssh_private_key_file": str(client.key.path)}},
        "gpus": {"hosts": ["gpu01"]},
    }, indent=2)


def _ini(sshd: SshServer, client: ClientSetup) -> str:
    return ("[gpu]\n"
            f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port}\n"
            "[gpu:vars]\n"
            f"ansible_ssh_private_key_file={client.key.path}\n"
            "team=lab\n")


@pytest.mark.parametrize("write", [_yaml_with_comment, _flow_yaml, _listed_json, _ini])
def test_an_inventory_without_extension_is_read_in_its_own_format(
        write: Callable[[SshServer, ClientSetup], str], cli: Callable[..., Any], client: ClientSetup,
        sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts"
    inventory.write_text(write(sshd, client))
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(PLAYBOOK)
    done = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))
    assert done.code == 0, done.stdout + done.stderr
    (run,) = (tmp_path / "runs").glob("*/run.json")
    hosts = json.loads(run.read_text())["hosts"]
    assert [(h["name"], h["status"]) for h in hosts] == [("gpu01", "passed")]
    assert "team=lab on gpu01" in done.stdout + "".join(
        p.read_text(errors="replace") for p in run.parent.rglob("*") if p.is_file())


def test_a_one_line_ini_inventory_with_a_colon_in_a_value_stays_ini(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`gpu01 ... team="lab: infra"` alone reads in YAML as a mapping of a text, not of groups:
    it is INI (Ansible's yaml plugin refuses it and the INI one reads it)."""
    inventory = tmp_path / "hosts"
    inventory.write_text(f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} "
                         f"ansible_ssh_private_key_file={client.key.path} team=\"lab: infra\"\n")
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(PLAYBOOK)
    done = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))
    assert done.code == 0, done.stdout + done.stderr
    (run,) = (tmp_path / "runs").glob("*/run.json")
    assert [(h["name"], h["status"]) for h in json.loads(run.read_text())["hosts"]] == [("gpu01", "passed")]
