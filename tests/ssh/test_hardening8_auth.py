"""Logins that fail for a reason the user can act on say that reason."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_hardening7_ssh import bastion  # noqa: F401 - the PAM server fixture, reused below
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer


def dead_socket(path: Path) -> Path:
    """What a tmux session keeps in $SSH_AUTH_SOCK after the login that started its agent ended:
    a socket file nobody listens on."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.close()
    return path


def test_a_stale_ssh_auth_sock_is_named_not_called_an_empty_agent(
    client: ClientSetup, sshd_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key lives only in the agent; $SSH_AUTH_SOCK points at a dead socket. ssh(1) fails
    too (and says why only under -v); we said "no keys found (agent empty, ...)", sending the
    user to ssh-add into an agent that is not there."""
    server = sshd_factory("agent-only")
    client.trust(server)
    client.alias("agent-only", server, IdentityFile="none", IdentitiesOnly="no")
    monkeypatch.setenv("SSH_AUTH_SOCK", str(dead_socket(tmp_path / "agent.sock")))
    if shutil.which("ssh"):
        said = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "agent-only", "true"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert said.returncode != 0 and "Permission denied" in said.stderr, said.stderr
    with pytest.raises(AuthenticationError) as failed:
        SSHTransport.connect("agent-only", client.options(use_agent=True))
    message = failed.value.message
    assert "agent empty" not in message, message
    assert f"ssh-agent not reached: SSH_AUTH_SOCK {tmp_path / 'agent.sock'}: Connection refused" in message, message


def test_a_host_that_would_take_a_password_says_how_to_install_the_key(
    client: ClientSetup, sshd_factory: Any, tmp_path: Path
) -> None:
    """A new box that allows passwords and does not know our key yet: ssh(1) would ask for the
    password; we log in with keys only, so the message says so and names ssh-copy-id."""
    stranger = ClientKey.create(tmp_path / "other")  # the only key the server knows is someone else's
    server = sshd_factory("password-box", extra_config="Match all\n  PasswordAuthentication yes\n")
    server.authorized_keys_path.write_text(stranger.public + "\n")
    client.trust(server)
    client.alias("password-box", server)
    with pytest.raises(AuthenticationError) as failed:
        SSHTransport.connect("password-box", client.options())
    error = failed.value
    assert "the host would also take a password, which spec-debug does not use" in error.message, error.message
    # Through the config's name, with the config's key (test_hardening49_ssh_copy_id_hint runs it).
    assert f"ssh-copy-id -i {client.key.path} " in (error.hint or ""), error.hint
    assert f" -p {server.port} {pwd.getpwuid(os.getuid()).pw_name}@password-box`" in (error.hint or ""), error.hint
    assert "\n" not in error.message


@pytest.fixture
def password_only_host(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A host that takes no keys, only a PAM password (keyboard-interactive): a lab box or a
    bastion that authenticates against LDAP. hardening7's PAM bastion, keys turned off."""
    import tests.ssh.test_hardening7_ssh as h7

    class PasswordOnly(h7.KbdInteractiveServer):
        def _sshd_config(self) -> str:
            config = super()._sshd_config()
            assert "AuthenticationMethods publickey,keyboard-interactive\n" in config
            return config.replace("AuthenticationMethods publickey,keyboard-interactive\n",
                                  "AuthenticationMethods keyboard-interactive\nPubkeyAuthentication no\n")

    monkeypatch.setattr(h7, "KbdInteractiveServer", PasswordOnly)
    return request.getfixturevalue("bastion")


def test_a_host_that_takes_only_a_password_asks_for_it_on_a_terminal(client: ClientSetup, password_only_host: Any) -> None:
    """ssh(1) skips the keys the host refuses and asks for the password; we stopped at the
    first key with "server does not accept public keys", although someone was there to answer."""
    asked: list[str] = []

    def person(question: str) -> str:
        asked.append(question)
        return "code-123456"

    with SSHTransport.connect("bastion", client.options(batch=False, prompt=person)) as transport:
        assert transport.connection.transport.is_authenticated()
    assert len(asked) == 1 and asked[0].startswith("(bastion)") and "assword" in asked[0], asked
    # Under --batch nobody can answer: the one-line refusal stays as it was.
    with pytest.raises(AuthenticationError, match=r"server does not accept public keys \(allowed: keyboard-interactive\)"):
        SSHTransport.connect("bastion", client.options())


def test_a_password_only_host_does_not_send_the_user_to_authorized_keys(client: ClientSetup, sshd_factory: Any) -> None:
    """With PubkeyAuthentication no, a key in authorized_keys changes nothing: the hint said to add one."""
    server = sshd_factory("pwonly", extra_config="Match all\n  PubkeyAuthentication no\n  PasswordAuthentication yes\n")
    client.trust(server)
    client.alias("pwonly", server)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("pwonly", client.options())
    assert refused.value.message == "pwonly: server does not accept public keys (allowed: password)"
    hint = refused.value.hint or ""
    assert "authorized_keys" not in hint and "PubkeyAuthentication yes" in hint, hint


def test_a_refused_root_login_names_permit_root_login(client: ClientSetup, sshd_factory: Any) -> None:
    """`--host root@gpu01` on an image with PermitRootLogin no: the right key is refused all the same."""
    import getpass

    if getpass.getuser() != "root":
        pytest.skip("the test sshd logs in as the user running the tests")
    server = sshd_factory("noroot", extra_config="Match all\n  PermitRootLogin no\n")
    client.trust(server)
    client.alias("noroot", server)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("root@noroot", client.options())
    assert "authentication failed for root@" in refused.value.message
    assert "PermitRootLogin no" in (refused.value.hint or ""), refused.value.hint


def _fido_key_file(path: Path) -> Path:
    """An `ssh-keygen -t ed25519-sk` private key file as OpenSSH writes it (PROTOCOL.u2f): the
    public key, the FIDO application, flags and the token's key handle; made here because
    ssh-keygen needs the security key itself to make one."""
    import base64
    import os
    import struct

    def string(value: bytes | str) -> bytes:
        data = value.encode() if isinstance(value, str) else value
        return struct.pack(">I", len(data)) + data

    kind, public = "sk-ssh-ed25519@openssh.com", os.urandom(32)
    public_blob = string(kind) + string(public) + string("ssh:")
    private = (struct.pack(">II", 7, 7) + string(kind) + string(public) + string("ssh:") + bytes([1]) + string(os.urandom(64))
               + string(b"") + string("me@laptop"))
    private += bytes(range(1, 1 + (-len(private)) % 8))
    blob = b"openssh-key-v1\0" + string("none") + string("none") + string(b"") + struct.pack(">I", 1) + string(public_blob) + string(private)
    encoded = base64.b64encode(blob).decode()
    path.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(encoded[i:i + 70] for i in range(0, len(encoded), 70))
                    + "\n-----END OPENSSH PRIVATE KEY-----\n")
    Path(str(path) + ".pub").write_text(f"{kind} {base64.b64encode(public_blob).decode()} me@laptop\n")
    return path


def test_a_fido_key_listed_first_is_skipped_and_the_next_key_logs_in(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`IdentityFile ~/.ssh/id_ed25519_sk` (a YubiKey) before the plain key: ssh(1) goes on to
    the next identity; cryptography's UnsupportedAlgorithm escaped the login and failed the
    host as "internal error: UnsupportedAlgorithm: sk-ssh-ed25519 private keys cannot be loaded"."""
    fido = _fido_key_file(tmp_path / "id_ed25519_sk")
    if shutil.which("ssh-keygen"):
        listed = subprocess.run(["ssh-keygen", "-l", "-f", f"{fido}.pub"], capture_output=True, text=True, check=False)
        assert "(ED25519-SK)" in listed.stdout, listed  # OpenSSH reads it as a FIDO key
    client.alias("with-fido", sshd, IdentityFile=[str(fido), str(client.key.path)])
    with SSHTransport.connect("with-fido", client.options()) as transport:
        assert transport.connection.transport.is_authenticated()
    stranger = sshd  # the same server, now with only the FIDO key offered: a clear failure
    client.alias("fido-only", stranger, IdentityFile=str(fido))
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("fido-only", client.options())
    assert "a FIDO security key (-sk), which spec-debug cannot use" in refused.value.message, refused.value.message


def test_a_fido_key_in_the_agent_does_not_end_the_login_before_the_right_key(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, agent_at: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A YubiKey user's agent holds an -sk key; without the token the agent refuses to sign, and
    paramiko ends the connection on that: the host failed with "key cannot be used for signing"
    although IdentityFile named a key that logs in. ssh(1) offers the next key."""
    fido = _fido_key_file(tmp_path / "id_ed25519_sk")
    fido.chmod(0o600)
    socket_path = agent_at(tmp_path / "agent.sock", [str(fido)])
    monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
    client.alias("yubikey-user", sshd, IdentitiesOnly="no")
    with SSHTransport.connect("yubikey-user", client.options(use_agent=True)) as transport:
        assert transport.connection.transport.is_authenticated()
    # Only the FIDO key to offer: one line that says why, not a handshake failure.
    client.alias("token-only", sshd, IdentityFile="none", IdentitiesOnly="no")
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("token-only", client.options(use_agent=True))
    assert "ssh-agent would not sign with agent key" in refused.value.message, refused.value.message
    assert "FIDO" in (refused.value.hint or "")


def test_a_key_that_lives_only_in_the_agent_logs_in_with_its_certificate(
    client: ClientSetup, sshd_factory: Any, tmp_path: Path, agent_at: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1Password, Secretive or a Vault-signed setup: the private key is only in the agent, the
    config names its public key and the CA's certificate (CertificateFile). ssh(1) signs the
    certificate login with the agent's key; we offered the agent key bare (refused: the host
    trusts only the CA) and then found no private key file."""
    import pwd

    from tests.sshd_fixture import keygen

    ca = keygen(tmp_path / "user_ca", comment="corp user CA")
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # no key is authorized: only certificates
    client.trust(server)
    key = keygen(tmp_path / "agent_only")
    user = pwd.getpwuid(os.getuid()).pw_name
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "me", "-n", user, f"{key}.pub"], check=True)
    (tmp_path / "agent_only-cert.pub").rename(tmp_path / "issued-cert.pub")
    monkeypatch.setenv("SSH_AUTH_SOCK", str(agent_at(tmp_path / "agent.sock", [str(key)])))
    key.unlink()  # from now on only the agent holds it
    client.alias("ca-only", server, IdentityFile=f"{key}.pub", CertificateFile=str(tmp_path / "issued-cert.pub"))
    if shutil.which("ssh"):
        said = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "ca-only", "true"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert said.returncode == 0, said.stderr
    with SSHTransport.connect("ca-only", client.options(use_agent=True)) as transport:
        assert transport.connection.transport.is_authenticated()
