"""`ProxyJump hop1,hop2` where hop2's key is not known yet: the hint said "run `ssh -p PORT
hop2` once". hop2's own config block reaches it directly, and hop2 is reachable only from hop1:
that ssh(1) cannot get there, files nothing, and the next run fails the same way. ssh(1) itself
reaches hop2 as `ssh -J hop1 hop2` (openssh-portable: ssh.c, main), and so must the hint. An
inventory host whose jump is in its ansible_ssh_common_args (in no ssh config) likewise."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_hinted_ssh_answering_yes, run_tiny
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_the_hint_for_a_second_hop_goes_through_the_first(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path) -> None:
    hop1 = sshd_factory("hop1")
    hop2 = sshd_factory("hop2")
    client.trust(hop1)
    client.alias("hop1", hop1)
    client.alias("hop2", hop2)
    client.alias("gpu01", sshd, ProxyJump="hop1,hop2")
    done, record = run_tiny(cli, tmp_path, "first", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert record["hosts"][0]["error"].startswith("gpu01: jump host hop2: host key for "), record["hosts"][0]["error"]
    command = run_hinted_ssh_answering_yes(done.stderr, client.config)
    assert command[command.index("-J") + 1] == "hop1", command
    done, record = run_tiny(cli, tmp_path, "second", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_the_hint_for_an_inventory_host_goes_through_its_jump(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path) -> None:
    bastion = sshd_factory("bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    client.known_hosts.write_text(bastion.known_hosts_line)
    # ssh(1) reads the passwd entry's ~/.ssh, not $HOME's: this stands in for its default file.
    client.alias("*", sshd, UserKnownHostsFile=str(tmp_path / "default_known_hosts"))
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        f"lab01 ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
        f"ansible_ssh_common_args='-J bastion -o UserKnownHostsFile={client.known_hosts}'\n")
    done, _ = run_tiny(cli, tmp_path, "first", "-i", str(inventory))
    assert done.code == 3, done.stdout + done.stderr
    command = run_hinted_ssh_answering_yes(done.stderr, client.config)
    assert command[command.index("-J") + 1] == "bastion", command
    done, record = run_tiny(cli, tmp_path, "second", "-i", str(inventory))
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
