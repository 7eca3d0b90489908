"""`host_key_checking = False` in ansible.cfg, and $ANSIBLE_HOST_KEY_CHECKING, read as Ansible reads them.

Ansible's ssh plugin takes its host_key_checking option from [defaults] and [ssh_connection] of
ansible.cfg, from $ANSIBLE_HOST_KEY_CHECKING / $ANSIBLE_SSH_HOST_KEY_CHECKING and from the
inventory's ansible_host_key_checking / ansible_ssh_host_key_checking, later sources winning
(ansible/ansible: lib/ansible/plugins/connection/ssh.py, DOCUMENTATION). It is the line most
ansible.cfg files of cloud GPU fleets carry. spec-debug read the inventory variables only: a
fresh host, known in no known_hosts file, was refused as an unknown host key, where
`ansible all -m ping` logged in.

The host is real: the shared sshd, its key taken out of the client's known_hosts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: fresh_hosts
description: one shell step per host
steps:
  - id: hello
    title: Say hello
    why: proves the host was let in
    run: echo "hello from {{ host }}"
"""

_ENV = ("ANSIBLE_CONFIG", "ANSIBLE_HOST_KEY_CHECKING", "ANSIBLE_SSH_HOST_KEY_CHECKING")


def _project(tmp_path: Path, client: ClientSetup, sshd: SshServer, cfg: str, host_vars: str = "") -> Path:
    project = tmp_path / "ansible"
    project.mkdir()
    (project / "hosts.ini").write_text(
        "[gpus]\n"
        f"gpu01 ansible_host={sshd.address} ansible_port={sshd.port} {host_vars}\n"
        "[gpus:vars]\n"
        f"ansible_ssh_private_key_file={client.key.path}\n")
    (project / "ansible.cfg").write_text(cfg)
    (project / "fleet.yaml").write_text(PLAYBOOK)
    client.known_hosts.write_text("")  # the host's key is known nowhere
    return project


def _status(cli: Callable[..., Any], project: Path) -> tuple[str, str]:
    done = cli("run", "fleet.yaml", "-i", "hosts.ini", "--batch", "--out", "runs", cwd=project)
    (run,) = (project / "runs").glob("*/run.json")
    [host] = json.loads(run.read_text())["hosts"]
    return host["status"], f"{host.get('error')} | {done.stdout} {done.stderr}"


@pytest.mark.parametrize("cfg", [
    "[defaults]\nhost_key_checking = False\n",
    "[defaults]\nhost_key_checking = True\n[ssh_connection]\nhost_key_checking = no   ; fresh cloud hosts\n",
])
def test_host_key_checking_off_in_ansible_cfg_lets_a_fresh_host_in(
        cfg: str, cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    project = _project(tmp_path, client, sshd, cfg)
    status, said = _status(cli, project)
    assert status == "passed", said


@pytest.mark.parametrize("variable", ["ANSIBLE_HOST_KEY_CHECKING", "ANSIBLE_SSH_HOST_KEY_CHECKING"])
def test_the_environment_variable_turns_it_off_over_ansible_cfg(
        variable: str, cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "False")
    project = _project(tmp_path, client, sshd, "[defaults]\nhost_key_checking = True\n")
    status, said = _status(cli, project)
    assert status == "passed", said


def test_the_inventory_variable_still_wins_and_checking_on_still_refuses(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`ansible_ssh_host_key_checking=true` on the host beats ansible.cfg's False: the unknown
    key is refused."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    project = _project(tmp_path, client, sshd, "[defaults]\nhost_key_checking = False\n",
                       host_vars="ansible_ssh_host_key_checking=true")
    status, said = _status(cli, project)
    assert status == "error" and "host key" in said.lower(), said
