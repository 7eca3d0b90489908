"""An inventory host (`lab01 ansible_host=10.20.0.5`) whose key the user filed under its
inventory name (`ssh lab01` once, through /etc/hosts): the run looks it up under 10.20.0.5,
and the hint said "set `HostKeyAlias lab01` for this host in your ssh config". A `Host lab01`
block is never read for it: the run, like Ansible's ssh(1), reaches the host as its
ansible_host, so ssh config blocks match 10.20.0.5 (the Host line names the address). The
hint names the Host line that does apply, and written as it says, the next run passes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_the_host_key_alias_hint_for_an_inventory_host_names_the_host_line_that_applies(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    # Port 22 as on a real lab host (a key filed for another port is `[name]:port`, which no
    # HostKeyAlias matches): the tunnel, an `ssh -W` through the test's sshd, carries it there.
    with open(client.known_hosts, "a") as known_hosts:  # beside the tunnel's own entry for `target`
        known_hosts.write(sshd.known_hosts_line.replace(sshd.known_hosts_name, "lab01", 1))
    tunnel = f"ssh -F {client.config} -W 127.0.0.1:{sshd.port} target"
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        f"lab01 ansible_host=10.20.0.5 ansible_port=22 ansible_ssh_private_key_file={client.key.path} "
        f"ansible_ssh_common_args='-o ProxyCommand=\"{tunnel}\" -o StrictHostKeyChecking=yes'\n")
    done, record = run_tiny(cli, tmp_path, "first", "-i", str(inventory))
    assert done.code == 3, done.stdout + done.stderr
    assert "the same key" in record["hosts"][0]["error"] and "'lab01'" in record["hosts"][0]["error"], record["hosts"][0]["error"]
    hint = re.search(r"set `HostKeyAlias (\S+)` under `Host (\S+)` in your ssh config", done.stderr)
    assert hint is not None, done.stderr
    alias, pattern = hint.groups()
    with open(client.config, "a") as config:
        config.write(f"Host {pattern}\n  HostKeyAlias {alias}\n")
    done, record = run_tiny(cli, tmp_path, "second", "-i", str(inventory))
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
