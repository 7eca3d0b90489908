"""`%l` in IdentityFile (and UserKnownHostsFile, IdentityAgent) is the local host name as ssh(1)
takes it: gethostname(3), not a DNS answer.

A shared NFS home on a cluster holds a key per login node: `IdentityFile ~/.ssh/id_%l`.
paramiko expands `%l` with socket.getfqdn(), a DNS lookup: `localhost` where /etc/hosts maps
the machine's name to 127.0.0.1, `node.domain` on Debian's `127.0.1.1 node.domain node`. The
file it named did not exist, and the host failed with no key tried where `ssh` logs in.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer


def test_percent_l_expands_as_ssh_expands_it(tmp_path: Path) -> None:
    if shutil.which("ssh") is None:
        pytest.skip("needs ssh(1) to compare with")
    config = tmp_path / "config"
    # ssh -G prints ControlPath expanded (IdentityFile it prints as written): the same %l.
    config.write_text("Host gpu01\n  ControlPath /keys/%l\n  IdentityFile /keys/%l\n")
    shown = subprocess.run(["ssh", "-F", str(config), "-G", "gpu01"], capture_output=True, text=True, check=True,
                           stdin=subprocess.DEVNULL).stdout
    [ssh_path] = [line.split(" ", 1)[1] for line in shown.splitlines() if line.startswith("controlpath ")]
    assert resolve_target("gpu01", load_ssh_config(config)).identity_files == (ssh_path,)


def test_a_key_per_machine_named_with_percent_l_logs_in(client: ClientSetup, tmp_path: Path) -> None:
    key = ClientKey.create(tmp_path / "nfs-home-keys", f"id_{socket.gethostname()}")
    server = SshServer(tmp_path / "sshd-node", [key]).start()
    try:
        client.trust(server)
        client.alias("node01", server, IdentityFile=str(key.path.parent / "id_%l"))
        with SSHTransport.connect("node01", client.options()) as transport:
            assert transport.connection.transport.is_authenticated()
    finally:
        server.stop()
