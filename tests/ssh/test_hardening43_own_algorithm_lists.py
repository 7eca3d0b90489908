"""A KexAlgorithms, Ciphers or MACs line in the user's ssh config that leaves out everything a
host offers (a hardening guide's list copied under `Host *`, a host later locked to another).

ssh(1) fails the same way ("no matching cipher found"), and the fix is the user's own line.
spec-debug's hint sent the on-call engineer to the host instead: "update openssh-server there"
for a kex list, "ask its admin ... paramiko lacks" for a cipher or MAC that paramiko has.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.runner.ssh_connect import connect
from spec_debug.runner.ssh_errors import HandshakeError
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize(
    ("keyword", "ours", "theirs", "what"),
    [
        ("KexAlgorithms", "diffie-hellman-group14-sha256", "ecdh-sha2-nistp256", "key exchange algorithm"),
        ("Ciphers", "aes128-ctr", "aes256-gcm@openssh.com", "cipher"),
        ("MACs", "hmac-sha2-256", "hmac-sha2-512-etm@openssh.com", "MAC"),
    ],
    ids=["kex", "cipher", "mac"],
)
def test_a_list_in_the_users_config_that_leaves_out_the_host_names_that_line(
    client: ClientSetup, tmp_path: Path, keyword: str, ours: str, theirs: str, what: str
) -> None:
    workdir = tmp_path / "locked-sshd"
    workdir.mkdir()
    server = SshServer(workdir, [client.key], extra_config=f"{keyword} {theirs}\n").start()
    try:
        client.trust(server)
        client.alias("gpu07", server, **{keyword: ours})
        with pytest.raises(HandshakeError) as info:
            connect("gpu07", client.options())
    finally:
        server.stop()
    assert info.value.message == (
        f"gpu07: 127.0.0.1:{server.port} offers no {what} we accept (it offers: {theirs}; we accept: {ours})")
    assert info.value.hint == (
        f"your ssh config's `{keyword} {ours}` for this host leaves out every one it offers: "
        f"add one to it (`{keyword} {ours},{theirs}`), or remove the line")
