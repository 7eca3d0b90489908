"""A host key that changed, met on the new connection a one-session host needs, keeps its hint.

When sshd refuses a session although none of ours is open (a session it still counts: an SFTP
server stuck in open() on a hung file, test_hardening20_ssh_stuck_session), the step goes on
over a new connection. Where that connection meets a changed host key (the host reinstalled,
its address moved: a VIP failover), the step failed with "the server refused a new session
channel" and "raise MaxSessions in sshd_config" as its fix: the key error was dropped. The
reconnect after an idle drop already keeps it (test_hardening21_ssh_changed_key_midrun).

Real sshd with MaxSessions 1; the session it still counts is a channel opened past the
transport (sshd counts it as it counts the stuck SFTP server), and the host's key in
known_hosts is replaced by another key between the first step and the second.
"""

from __future__ import annotations

import time

import paramiko
import pytest

from spec_debug.errors import TransportError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer


def open_when_free(transport: SSHTransport) -> paramiko.Channel:
    """A session past the transport, once sshd has freed the last step's slot (it frees it on
    our CLOSE, which can trail the step's end)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return transport._connection.transport.open_session()
        except paramiko.ChannelException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_a_changed_host_key_on_the_new_connection_is_not_called_a_refused_session(
    client: ClientSetup, sshd_factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sshd's refusals are retried for 10 s (_CHANNEL_RETRY_S) before the new connection; 1 s here.
    monkeypatch.setattr(SSHTransport._open_session, "__defaults__", (1.0,))
    server: SshServer = sshd_factory("one", extra_config="MaxSessions 1\n")
    client.trust(server)
    client.alias("gpu", server)
    with SSHTransport.connect("gpu", client.options()) as transport:
        assert transport.run("true", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr")).exit_code == 0
        held = open_when_free(transport)
        held.exec_command("sleep 20")
        other = sshd_factory("other")  # only for its host key
        client.known_hosts.write_text(client.known_hosts.read_text().replace(server.known_hosts_line.split()[2], other.known_hosts_line.split()[2]))
        with pytest.raises(TransportError) as raised:
            transport.run("echo two", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
        held.close()
    assert "ssh-keygen -R" in (raised.value.hint or ""), (raised.value.message, raised.value.hint)
    assert "MaxSessions" not in (raised.value.hint or "")
    assert "refused a new session" in raised.value.message  # what happened first is still said
