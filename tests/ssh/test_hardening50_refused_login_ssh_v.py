"""A host that refuses our key: the hint said "`ssh -v` shows what ssh(1) offers", with no host.
For the second hop of `ProxyJump hop1,hop2` that `ssh -v hop2` goes straight to hop2, which is
reachable only from hop1 (ssh(1) reaches it as `ssh -J hop1 hop2`: openssh-portable, ssh.c,
main); for an inventory host it goes to a name no ssh config knows, without the inventory's
key (ansible_ssh_private_key_file). The hint names the `ssh -v` that logs in the way the run
did, and run as a person would, it offers the run's key to the host that refused it."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, keygen, write_ssh_config

StartServer = Callable[..., SshServer]


def _run_hinted_ssh_v(stderr: str, config: Path) -> tuple[list[str], str]:
    """The hint's `ssh -v ...`, run with -F CONFIG (ssh(1) reads the passwd entry's
    ~/.ssh/config, not $HOME's, and passes -F on to the ssh it starts for -J); its log."""
    hint = re.search(r"`(ssh -v [^`]+)` shows what ssh\(1\) offers", stderr)
    assert hint is not None, stderr
    command = shlex.split(hint.group(1))
    done = subprocess.run([command[0], "-F", str(config), "-o", "BatchMode=yes", *command[1:], "true"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    return command, done.stderr


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_a_second_hop_that_refuses_us_is_named_with_the_ssh_that_reaches_it(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path) -> None:
    hop1 = sshd_factory("hop1")
    with SshServer(tmp_path / "hop2", [ClientKey(keygen(tmp_path / "someone_else"))]) as hop2:
        client.trust(hop1)
        client.trust(hop2)
        client.alias("hop1", hop1)
        client.alias("hop2", hop2)
        client.alias("gpu01", sshd, ProxyJump="hop1,hop2")
        done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        assert record["hosts"][0]["error"].startswith("gpu01: jump host hop2: authentication failed"), record["hosts"][0]["error"]
        command, log = _run_hinted_ssh_v(done.stderr, client.config)
        assert command[command.index("-J") + 1] == "hop1", command
        assert f"Offering public key: {client.key.path}" in log, log
        assert f"Authenticating to {hop2.address}:{hop2.port} as 'root'" in log, log
        assert "Permission denied (publickey" in log, log


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_an_inventory_host_that_refuses_us_is_named_with_the_inventory_key(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    lab_key = keygen(tmp_path / "lab_ed25519")
    with SshServer(tmp_path / "lab01", [ClientKey(keygen(tmp_path / "someone_else"))]) as lab01:
        client.trust(lab01)
        # ssh(1) reads the passwd entry's ~/.ssh, not $HOME's: this stands in for its defaults.
        client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
        write_ssh_config(client.config, client.hosts)
        inventory = tmp_path / "hosts.ini"
        inventory.write_text(f"lab01 ansible_host={lab01.address} ansible_port={lab01.port} "
                             f"ansible_ssh_private_key_file={lab_key}\n")
        done, record = run_tiny(cli, tmp_path, "run", "-i", str(inventory))
        assert done.code == 3, done.stdout + done.stderr
        assert "authentication failed" in record["hosts"][0]["error"], record["hosts"][0]["error"]
        _, log = _run_hinted_ssh_v(done.stderr, client.config)
        assert f"Offering public key: {lab_key}" in log, log
        assert "Permission denied (publickey" in log, log
