"""`ansible_ssh_args` stand before Ansible's own `-o Port=`, `-o IdentityFile=` and `-o User=`.

Ansible's ssh plugin builds `ssh <ssh_args> [-o StrictHostKeyChecking=no] -o Port=<ansible_port>
-o IdentityFile="<ansible_ssh_private_key_file>" ... -o User=<ansible_user> ... <common args>
<extra args>` (ansible/ansible: lib/ansible/plugins/connection/ssh.py, _build_command), and
ssh(1) keeps the first User and Port it is given and adds every IdentityFile in order
(openssh-portable: ssh.c, main; readconf.c). Round 31 put ansible_ssh_args first among the
argument variables but below ansible_user / ansible_port / the private key: a group's
`ansible_ssh_args: -l ops -p 2200` logged in as the host's ansible_user on its ansible_port.
Common and extra args still come after them.
"""

from __future__ import annotations

import os
from pathlib import Path

import paramiko
import pytest

from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.ssh_config import resolve_target


def target_of(tmp_path: Path, variable: str):
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  hosts:\n    gpu01:\n      ansible_host: 10.0.0.1\n      ansible_user: alice\n"
        "      ansible_port: 2201\n      ansible_ssh_private_key_file: ~/.ssh/fleet\n"
        f"      {variable}: '-l ops -p 2200 -i ~/.ssh/rotated -o StrictHostKeyChecking=yes'\n"
    )
    [spec] = resolve_hosts([], [], inventory, None)
    return resolve_target(spec.address, paramiko.SSHConfig(), user=spec.user, port=spec.port,
                          identity_file=spec.identity_file, ssh_options=spec.ssh_options)


def test_ssh_args_win_over_ansible_user_port_and_key(tmp_path: Path) -> None:
    target = target_of(tmp_path, "ansible_ssh_args")
    assert (target.user, target.port) == ("ops", 2200)
    assert target.identity_files == (os.path.expanduser("~/.ssh/rotated"), os.path.expanduser("~/.ssh/fleet"))


@pytest.mark.parametrize("variable", ["ansible_ssh_common_args", "ansible_ssh_extra_args"])
def test_common_and_extra_args_come_after_them(variable: str, tmp_path: Path) -> None:
    target = target_of(tmp_path, variable)
    assert (target.user, target.port) == ("alice", 2201)
    assert target.identity_files == (os.path.expanduser("~/.ssh/fleet"), os.path.expanduser("~/.ssh/rotated"))
