"""A HostKeyAlias written with capitals: the known_hosts entry ssh(1) wrote for it is found.

ssh(1) puts HostKeyAlias in lower case before it uses it (OpenSSH 9.2p1, recorded here:
`HostKeyAlias GPU01-Node` + `UserKnownHostsFile .../kh_%k` wrote the file kh_gpu01-node, its
line "gpu01-node ssh-ed25519 ...", and `ssh -G` prints `hostkeyalias gpu01-node`). spec-debug
used the alias as written: under HashKnownHosts (Debian and Ubuntu's default) the entry is the
hash of the lower-case name and was not found, and a `%k` known_hosts file was one ssh(1) never
wrote, so the host's key was "unknown" and, with StrictHostKeyChecking yes, the run refused a
host that `ssh gpu01` reaches. The host is a real sshd; its key is filed by a real `ssh`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer

SSH = shutil.which("ssh")


@pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) to file the host key")
@pytest.mark.parametrize("known_hosts", ["hashed", "per_alias_file"])
def test_a_host_key_filed_by_ssh_under_a_capitalised_alias_is_found(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, known_hosts: str
) -> None:
    server = sshd_factory("h63alias")
    files = f"{tmp_path}/kh_%k" if known_hosts == "per_alias_file" else f"{tmp_path}/known_hosts_hashed"
    client.alias("gpu01", server, HostKeyAlias="GPU01-Node", UserKnownHostsFile=files, HashKnownHosts="yes",
                 StrictHostKeyChecking="yes")
    filed = subprocess.run([SSH, "-F", str(client.config), "-o", "StrictHostKeyChecking=accept-new", "-o", "BatchMode=yes",
                            "gpu01", "true"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert filed.returncode == 0, filed.stderr
    if known_hosts == "per_alias_file":
        assert [p.name for p in tmp_path.glob("kh_*")] == ["kh_gpu01-node"]
    else:
        filed_line = (tmp_path / "known_hosts_hashed").read_text()
        assert filed_line.startswith("|1|") and filed_line.count("\n") == 1, filed_line  # the hash of "gpu01-node"
    with SSHTransport.connect("gpu01", client.options()) as transport:
        assert run(transport, "echo reached")[1].text() == "reached\n"
    target = resolve_target("gpu01", load_ssh_config(client.config))
    assert target.host_key_alias == "gpu01-node"
