"""An inventory host reached through a tunnel its ansible_ssh_common_args set (`-o
ProxyCommand=...`: cloudflared access ssh, an IAP or SSM session), whose key is not known
yet: the hint said `ssh -p PORT ADDRESS`, an address only the tunnel reaches. Run literally,
the hinted ssh must go through the tunnel and file the key where the next run looks."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_hinted_ssh_answering_yes, run_tiny
from tests.ssh.test_hardening18_runtime import relay_command
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_the_hint_for_an_inventory_host_behind_a_tunnel_goes_through_the_tunnel(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, closed_port: Callable[[], int]) -> None:
    client.known_hosts.write_text("")
    # ssh(1) reads the passwd entry's ~/.ssh, not $HOME's: this stands in for its defaults.
    client.alias("*", sshd, UserKnownHostsFile=str(tmp_path / "default_known_hosts"))
    tunnel = relay_command(tmp_path).replace("%h %p", f"{sshd.address} {sshd.port}")
    unreachable = closed_port()  # the address the inventory names is reached through the tunnel only
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        f"lab01 ansible_host=127.0.0.1 ansible_port={unreachable} ansible_ssh_private_key_file={client.key.path} "
        f"ansible_ssh_common_args='-o ProxyCommand=\"{tunnel}\" -o UserKnownHostsFile={client.known_hosts}'\n")
    done, _ = run_tiny(cli, tmp_path, "first", "-i", str(inventory))
    assert done.code == 3, done.stdout + done.stderr
    run_hinted_ssh_answering_yes(done.stderr, client.config)
    done, record = run_tiny(cli, tmp_path, "second", "-i", str(inventory))
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
