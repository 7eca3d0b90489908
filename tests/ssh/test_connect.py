"""Reaching a host the way `ssh` does: config aliases, jump hosts, host keys, keys, and every
way a host can fail, each as a one-line TransportError."""

from __future__ import annotations

import getpass
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.errors import AuthenticationError, HostKeyError, TransportError
from spec_debug.runner.hosts import HostSpec, open_transport
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError, HandshakeError, HostUnreachableError
from tests.ssh.faults import StopOncePrinted
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, StallingServer, keygen

StartServer = Callable[..., SshServer]


def whoami(transport: SSHTransport) -> str:
    out = StreamCapture("stdout")
    transport.run("echo $USER@$SSH_CONNECTION", stdout=out, stderr=StreamCapture("stderr"))
    return out.text().strip()


def one_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0]
    assert "Traceback" not in str(exc) and "paramiko" not in text.lower()
    return text


def test_alias_resolves_through_the_config_file(client: ClientSetup, sshd: SshServer) -> None:
    with SSHTransport.connect("target", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        target = transport.connection.target
        assert (target.hostname, target.port, target.user) == ("127.0.0.1", sshd.port, getpass.getuser())
        assert whoami(transport).endswith(f" 127.0.0.1 {sshd.port}")


def test_user_at_host_port_overrides_the_config(client: ClientSetup, sshd: SshServer) -> None:
    client.hosts["*"] = {"IdentityFile": str(client.key.path), "UserKnownHostsFile": str(client.known_hosts), "Port": 1}
    client.alias("target", sshd)  # rewrite the file with the catch-all block
    spec = HostSpec(name="direct", address="127.0.0.1", port=sshd.port, user=getpass.getuser())
    with open_transport(spec, client.options()) as transport:
        assert isinstance(transport, SSHTransport) and transport.host == "direct"
        assert whoami(transport).startswith(getpass.getuser() + "@")


def test_proxyjump_chains_through_two_jump_hosts(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, closed_port: Callable[[], int]
) -> None:
    jump1, jump2 = sshd_factory("jump1"), sshd_factory("jump2")
    for server in (jump1, jump2):
        client.trust(server)
    client.alias("jump1", jump1)
    client.alias("jump2", jump2)
    client.alias("inner", sshd, ProxyJump="jump1,jump2")
    with SSHTransport.connect("inner", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        assert [hop.target.alias for hop in transport.connection.via] == ["jump1", "jump2"]
        assert jump1.connection_pids() and jump2.connection_pids()  # both hops carry the session
        assert whoami(transport).startswith(getpass.getuser() + "@")
    # A jump host that cannot reach the target says so.
    client.alias("nowhere", sshd, ProxyJump="jump1", Port=closed_port())
    with pytest.raises(HostUnreachableError, match="jump host jump1 could not open a connection") as info:
        SSHTransport.connect("nowhere", client.options())
    one_line(info.value)


def _delay_jump_data(gateway: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen, on the real jump connection, paramiko's window between a channel's `closed` check
    and its data packet leaving: the race then happens on every close, not 1 run in 20."""
    from paramiko.common import MSG_CHANNEL_DATA

    send_now = gateway._send_user_message  # type: ignore[attr-defined]

    def send_data_late(message: object) -> None:
        if message.asbytes()[0] == MSG_CHANNEL_DATA:  # type: ignore[attr-defined]
            time.sleep(0.05)
        send_now(message)

    monkeypatch.setattr(gateway, "_send_user_message", send_data_late)


@contextmanager
def _sending(inner: object) -> Iterator[None]:
    """The host's connection keeps sending (its own thread may, at any time) meanwhile."""
    stop = threading.Event()

    def chatter() -> None:
        while not stop.is_set():
            try:
                inner.send_ignore()  # type: ignore[attr-defined]
            except Exception:
                return

    sender = threading.Thread(target=chatter, daemon=True)
    sender.start()
    try:
        yield
    finally:
        stop.set()
        sender.join(5)


def test_closing_a_host_while_its_connection_sends_keeps_the_shared_jump_up(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A packet of the closing host's connection must not reach the jump host after the CLOSE
    of its channel: sshd drops the whole jump connection for it, and every other host behind
    the jump with it (seen in CI: a fleet behind one bastion losing hosts at the end of a run)."""
    jump = sshd_factory("racejump")
    client.trust(jump)
    client.alias("bastion", jump)
    client.alias("leaving", sshd, ProxyJump="bastion")
    client.alias("staying", sshd, ProxyJump="bastion")
    leaving = SSHTransport.connect("leaving", client.options())
    staying = SSHTransport.connect("staying", client.options())
    try:
        gateway = leaving.connection.via[0].transport
        assert gateway is staying.connection.via[0].transport
        _delay_jump_data(gateway, monkeypatch)
        with _sending(leaving.connection.transport):
            time.sleep(0.2)
            leaving.close()
        time.sleep(0.5)  # sshd's answer to a stray packet is a DISCONNECT of the jump connection
        assert gateway.is_active(), gateway.get_exception()
        assert whoami(staying).startswith(getpass.getuser() + "@")
    finally:
        leaving.close()
        staying.close()


def test_a_host_dropping_while_its_connection_sends_keeps_the_shared_jump_up(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same race from the other side: the target's sshd dies (a host rebooting) and the jump
    host closes the forwarded channel while the host's connection is sending on it."""
    import os
    import signal

    jump, doomed = sshd_factory("dropjump"), sshd_factory("doomed")
    for server in (jump, doomed):
        client.trust(server)
    client.alias("bastion", jump)
    client.alias("leaving", doomed, ProxyJump="bastion")
    client.alias("staying", sshd, ProxyJump="bastion")
    leaving = SSHTransport.connect("leaving", client.options())
    staying = SSHTransport.connect("staying", client.options())
    try:
        gateway = leaving.connection.via[0].transport
        _delay_jump_data(gateway, monkeypatch)
        inner = leaving.connection.transport
        with _sending(inner):
            time.sleep(0.2)
            for pid in doomed.connection_pids():
                os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while inner.is_active() and time.monotonic() < deadline:
                time.sleep(0.02)
        assert not inner.is_active()
        time.sleep(0.5)  # time for sshd's DISCONNECT, if a stray packet reached it
        assert gateway.is_active(), gateway.get_exception()
        assert whoami(staying).startswith(getpass.getuser() + "@")
    finally:
        leaving.close()
        staying.close()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_proxycommand_runs_through_openssh(client: ClientSetup, sshd: SshServer, sshd_factory: StartServer) -> None:
    jump = sshd_factory("pcjump")
    client.trust(jump)
    client.alias("pcjump", jump, BatchMode="yes")
    client.alias("viapc", sshd, ProxyCommand=f"ssh -F {client.config} -W %h:%p pcjump")
    with SSHTransport.connect("viapc", client.options()) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)


def test_unknown_host_key_is_refused_with_fingerprint(client: ClientSetup, sshd: SshServer) -> None:
    client.known_hosts.write_text("")
    with pytest.raises(HostKeyError) as info:
        SSHTransport.connect("target", client.options())
    message = str(info.value)
    assert sshd.host_key_fingerprint in message and "--accept-new" in message
    assert client.known_hosts.read_text() == ""  # never added silently


def test_accept_new_adds_unknown_keys_but_refuses_changed_ones(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.known_hosts.write_text("")
    with SSHTransport.connect("target", client.options(accept_new=True)):
        pass
    assert client.known_hosts.read_text().startswith(sshd.known_hosts_name + " ssh-ed25519 ")
    with SSHTransport.connect("target", client.options()):  # now known: plain connect works
        pass
    impostor = keygen(tmp_path / "impostor")
    kind, blob = Path(str(impostor) + ".pub").read_text().split()[:2]
    client.known_hosts.write_text(f"{sshd.known_hosts_name} {kind} {blob}\n")
    with pytest.raises(HostKeyError, match="HOST KEY CHANGED") as info:
        SSHTransport.connect("target", client.options(accept_new=True))
    assert sshd.host_key_fingerprint in str(info.value) and "ssh-keygen -R" in str(info.value)


def test_hashed_known_hosts_entries_are_understood(client: ClientSetup, sshd: SshServer) -> None:
    import subprocess

    subprocess.run(["ssh-keygen", "-H", "-f", str(client.known_hosts)], check=True, capture_output=True)
    assert sshd.known_hosts_name not in client.known_hosts.read_text()
    with SSHTransport.connect("target", client.options()):
        pass


def test_known_hosts_as_fleets_write_them_cert_authority_revoked_patterns_and_junk(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """An org's known_hosts: a host CA line, a key type nobody supports, a corrupt line, and
    wildcard patterns. paramiko gives up on such a file at its first odd line; OpenSSH skips
    the line. A key marked @revoked is refused."""
    kind, blob = Path(str(sshd.host_key_path) + ".pub").read_text().split()[:2]
    ca = keygen(tmp_path / "host_ca")
    ca_kind, ca_blob = Path(str(ca) + ".pub").read_text().split()[:2]
    client.known_hosts.write_text(
        "# managed by puppet\n"
        f"@cert-authority *.corp.example,[127.0.0.*]:* {ca_kind} {ca_blob}\n"
        f"legacy.corp.example ssh-dss AAAAB3NzaC1kc3MAAACBAP\n"
        f"broken.corp.example {kind} not-base64!!\n"
        f"[127.0.0.1]:*,!bad.corp.example {kind} {blob}\n"
    )
    with SSHTransport.connect("target", client.options()) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)
    revoked = sshd_factory("revoked")
    revoked_kind, revoked_blob = Path(str(revoked.host_key_path) + ".pub").read_text().split()[:2]
    with open(client.known_hosts, "a") as handle:
        handle.write(f"@revoked * {revoked_kind} {revoked_blob}\n")
    client.alias("revoked", revoked)
    with pytest.raises(HostKeyError, match="marked @revoked") as info:
        SSHTransport.connect("revoked", client.options(accept_new=True))
    one_line(info.value)


def test_a_key_the_server_does_not_know_fails_authentication(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    stranger = ClientKey.create(tmp_path / "stranger")
    client.alias("stranger", sshd, IdentityFile=str(stranger.path))
    with pytest.raises(AuthenticationError, match="authentication failed") as info:
        SSHTransport.connect("stranger", client.options())
    assert "stranger/id_ed25519" in str(info.value)
    one_line(info.value)


def test_encrypted_keys_prompt_or_fail_clearly_in_batch_mode(client: ClientSetup, sshd_factory: StartServer, tmp_path: Path) -> None:
    locked = ClientKey.create(tmp_path / "locked", passphrase="s3cret")
    server = sshd_factory("locked")
    server.authorized_keys_path.write_text(locked.public + "\n")
    client.trust(server)
    client.alias("locked", server, IdentityFile=str(locked.path))
    with pytest.raises(AuthenticationError, match="encrypted and --batch") as info:
        SSHTransport.connect("locked", client.options(batch=True))
    assert "ssh-add" in str(info.value)
    asked: list[str] = []

    def prompt(text: str) -> str:
        asked.append(text)
        return "s3cret"

    with SSHTransport.connect("locked", client.options(batch=False, prompt=prompt)) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)
    assert len(asked) == 1 and "locked" in asked[0]


def test_connection_refused(client: ClientSetup, sshd: SshServer, closed_port: Callable[[], int]) -> None:
    client.alias("closed", sshd, Port=closed_port())
    with pytest.raises(HostUnreachableError, match="connection refused") as info:
        SSHTransport.connect("closed", client.options())
    one_line(info.value)


def test_dns_failure(client: ClientSetup) -> None:
    with pytest.raises(HostUnreachableError, match="cannot resolve host name") as info:
        SSHTransport.connect("no-such-host.invalid", client.options())
    one_line(info.value)


def test_a_stalled_host_times_out_at_the_banner(client: ClientSetup) -> None:
    with StallingServer() as stalled:
        started = time.monotonic()
        spec = HostSpec(name="stalled", address=stalled.address, port=stalled.port)
        with pytest.raises(HandshakeError, match="no SSH handshake") as info:
            open_transport(spec, client.options(connect_timeout_s=1.0))
        # About 1 s (the timeout set); not the 15 s of paramiko's banner_timeout or of the
        # default ConnectTimeout, which a timeout left unapplied waits. 10 s leaves a loaded
        # machine 9 s of stalls (the bound was 5 s).
        assert time.monotonic() - started < 10
        one_line(info.value)


def test_sshd_killed_mid_step_is_a_lost_connection(client: ClientSetup, sshd_factory: StartServer) -> None:
    server = sshd_factory("doomed")
    client.trust(server)
    client.alias("doomed", server)
    with SSHTransport.connect("doomed", client.options()) as transport:
        stopper = StopOncePrinted(server)  # the step runs: a timer from here raced its start
        try:
            with pytest.raises(ConnectionLostError, match="connection lost") as info:
                transport.run("echo started; sleep 20", stdout=stopper.stdout, stderr=StreamCapture("e"), timeout_s=30)
            # Seen when the connection went, not at the step's end (its sleep 20) or timeout (30 s).
            assert time.monotonic() - stopper.stopped_at[0] < 10
            one_line(info.value)
            with pytest.raises(TransportError):  # and the next step fails the same way, at once
                transport.run("true", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
        finally:
            # The fixture's teardown stops the server too: let this stop finish first.
            stopper.join()


@pytest.fixture
def ssh_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent_at) -> Path:  # type: ignore[no-untyped-def]
    """A real ssh-agent of our own, empty, on a socket in tmp, as $SSH_AUTH_SOCK."""
    socket_path = agent_at(tmp_path / "agent.sock", [])
    monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
    return socket_path


def test_keys_from_the_agent_are_used_and_identities_only_filters_them(
    client: ClientSetup, sshd: SshServer, ssh_agent: Path, tmp_path: Path
) -> None:
    import subprocess

    subprocess.run(["ssh-add", str(client.key.path)], check=True, capture_output=True)
    agent_only = tmp_path / "no-such-key"  # no file: only the agent can authenticate
    client.alias("viaagent", sshd, IdentityFile=str(agent_only), IdentitiesOnly="no")
    with SSHTransport.connect("viaagent", client.options(use_agent=True)) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)
    # IdentitiesOnly yes: the agent key is not one of the configured identities, so it is not offered.
    client.alias("strict", sshd, IdentityFile=str(agent_only), IdentitiesOnly="yes")
    with pytest.raises(AuthenticationError):
        SSHTransport.connect("strict", client.options(use_agent=True))


def test_identity_file_naming_the_public_key_picks_the_agent_key_or_the_private_key_beside_it(
    client: ClientSetup, sshd: SshServer, ssh_agent: Path, tmp_path: Path
) -> None:
    """ssh_config(5) lets IdentityFile name a public key (to choose among agent keys, e.g. keys
    on a hardware token); and people often point it at the .pub by mistake."""
    import subprocess

    subprocess.run(["ssh-add", str(client.key.path)], check=True, capture_output=True)
    only_public = tmp_path / "token" / "id_token.pub"  # no private key anywhere near it
    only_public.parent.mkdir()
    shutil.copy(str(client.key.path) + ".pub", only_public)
    client.alias("token", sshd, IdentityFile=str(only_public), IdentitiesOnly="yes")
    with SSHTransport.connect("token", client.options(use_agent=True)) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)
    client.alias("pubbeside", sshd, IdentityFile=str(client.key.path) + ".pub")
    with SSHTransport.connect("pubbeside", client.options(use_agent=False)) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)
    with pytest.raises(AuthenticationError, match="a public key, and no such key in ssh-agent"):
        SSHTransport.connect("token", client.options(use_agent=False))
    putty = tmp_path / "id.ppk"
    putty.write_text("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: laptop\n")
    client.alias("putty", sshd, IdentityFile=str(putty))
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("putty", client.options(use_agent=False))
    assert "a PuTTY .ppk key; convert it with `puttygen" in one_line(info.value) and "https://" not in str(info.value)


def test_accept_new_with_a_known_hosts_file_that_cannot_be_written_still_connects(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("rohome", sshd, UserKnownHostsFile="/dev/null/known_hosts")  # its folder is a device
    with SSHTransport.connect("rohome", client.options(accept_new=True)) as transport:
        assert isinstance(transport, SSHTransport) and whoami(transport)
