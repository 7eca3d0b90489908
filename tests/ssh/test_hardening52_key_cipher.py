"""An OpenSSH key encrypted with a cipher paramiko cannot open (`ssh-keygen -Z aes128-ctr`,
aes256-gcm@openssh.com, chacha20-poly1305@openssh.com: any `ssh -Q cipher` name), which ssh(1)
opens with its passphrase. The right passphrase got "unusable: 'mode'" or "Unsupported cipher",
naming no way out. The message now names the cipher and two that work: ssh-agent, or the key
re-encrypted with aes256-ctr (what ssh-keygen writes by default)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import SSH_KEYGEN, ClientKey, ClientSetup, SshServer


@pytest.mark.parametrize("cipher", ["aes128-ctr", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com"])
def test_a_key_in_a_cipher_paramiko_lacks_is_named_with_the_way_to_re_encrypt_it(
        client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, cipher: str) -> None:
    key = tmp_path / "id_ed25519"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "s3cret", "-Z", cipher, "-f", str(key)], check=True,
                   stdin=subprocess.DEVNULL)
    server = sshd_factory("gpu01")
    server.authorized_keys_path.write_text(ClientKey(key).public + "\n")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    options = client.options(batch=False, prompt=lambda _: "s3cret")
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("gpu01", options)
    message = str(info.value)
    assert f"encrypted with {cipher}, which spec-debug cannot open" in message, message
    assert f"`ssh-keygen -p -Z aes256-ctr -f {key}`" in message, message
    # The way out it names works.
    subprocess.run([SSH_KEYGEN, "-q", "-p", "-P", "s3cret", "-N", "s3cret", "-Z", "aes256-ctr", "-f", str(key)],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL)
    with SSHTransport.connect("gpu01", options) as transport:
        assert transport.run("true", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"),
                             timeout_s=30).exit_code == 0
