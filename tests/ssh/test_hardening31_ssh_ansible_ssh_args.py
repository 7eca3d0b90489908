"""An inventory's `ansible_ssh_args` applies, before ansible_ssh_common_args and _extra_args, and
`ansible_host_key_checking: false` too.

Ansible's ssh plugin reads its `ssh_args` option from the `ansible_ssh_args` variable too (since
2.7; ansible/ansible: lib/ansible/plugins/connection/ssh.py, DOCUMENTATION) and puts it first on
ssh's command line (_build_command). Fleets of short-lived cloud GPU hosts set it per group, to
keep ansible.cfg's defaults and stop host key prompts: `-C -o ControlMaster=auto -o
ControlPersist=60s -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`. spec-debug
dropped the variable as one of Ansible's own: the host, whose key is in no known_hosts file,
was refused as an unknown host, where ansible and ssh logged in.

The host is real: an sshd whose host key the client has never seen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

ANSIBLE_DEFAULTS = "-C -o ControlMaster=auto -o ControlPersist=60s"


def write_inventory(tmp_path: Path, server: SshServer, key: ClientKey, group_vars: str) -> Path:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  children:\n    cloud:\n      hosts:\n        gpu01:\n"
        f"          ansible_host: {server.address}\n          ansible_port: {server.port}\n"
        f"          ansible_ssh_private_key_file: {key.path}\n"
        f"      vars:\n{group_vars}"
    )
    return inventory


def test_ansible_ssh_args_of_a_group_let_its_hosts_in(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, (
        f"        ansible_ssh_args: '{ANSIBLE_DEFAULTS} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'\n"
    ))
    client.known_hosts.write_text("")  # the host's key is known nowhere
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    assert "ansible_ssh_args" not in spec.vars
    with open_transport(spec, client.options(ssh_config_path=Path("none"))) as transport:
        assert isinstance(transport, SSHTransport)
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
    assert client.known_hosts.read_text() == ""


def test_ansible_ssh_args_come_first_on_the_command_line(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """As on ssh's command line the first value wins: ssh_args' over common args' and extra args'."""
    inventory = write_inventory(tmp_path, sshd, client.key, (
        f"        ansible_ssh_args: '{ANSIBLE_DEFAULTS} -o ConnectTimeout=7 -o SendEnv=FIRST_*'\n"
        "        ansible_ssh_common_args: '-o ConnectTimeout=9 -o SendEnv=SECOND_*'\n"
        "        ansible_ssh_extra_args: '-o ConnectTimeout=11'\n"
    ))
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    assert spec.ssh_options["connecttimeout"] == "7"
    assert spec.ssh_options["sendenv"].split() == ["FIRST_*", "SECOND_*"]


@pytest.mark.parametrize("value", ["false", "'False'", "no"])
def test_ansible_host_key_checking_false_lets_a_new_host_in(value: str, client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`ansible_host_key_checking: false` is `-o StrictHostKeyChecking=no` after ssh_args (ssh.py,
    _build_command): the host, known nowhere, was refused as an unknown host key."""
    inventory = write_inventory(tmp_path, sshd, client.key, f"        ansible_host_key_checking: {value}\n")
    client.known_hosts.write_text("")
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
    assert spec.ssh_options == {"stricthostkeychecking": "no"}

