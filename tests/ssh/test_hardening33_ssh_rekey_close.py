"""A key exchange that paramiko starts itself (after 2^29 bytes or packets either way:
paramiko/packet.py, REKEY_BYTES; a fetch of a 1 GB hidden-states dump, a step's flood of
output) while the server closes a channel (a step that just ended).

paramiko's transport thread answers the server's CHANNEL_CLOSE with its own CLOSE through
_send_user_message, which waits for the key exchange to end; the key exchange is run by that
same thread, so it never ends: 30 s later (clear_to_send_timeout) paramiko raised "Key-exchange
timed out waiting for key negotiation" and the connection was lost with the step
(paramiko/paramiko#822, open; #174, "fails somewhere between 500 meg and one gig of transfer").
A keepalive reply (sshd's ClientAliveInterval) took the same path. Those replies now wait in a
queue and go out once the new keys are in use.

The race is made certain with a relay that holds our KEXINIT on its way to sshd until the
step's CLOSE has come (what a long link, or a busy sshd, does by chance)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, Relay, SshServer, returns_within


def test_a_step_that_ends_during_our_key_exchange_keeps_the_connection(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("rekey-close")
    client.trust(server)
    link = Relay(server)
    client.alias("gpu", server, Port=link.port, HostKeyAlias=server.known_hosts_name)
    try:
        with SSHTransport.connect("gpu", client.options()) as transport:
            paramiko_transport = transport.connection.transport
            stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
            outcome: list[object] = []
            step = threading.Thread(target=lambda: outcome.append(
                transport.run("echo started; sleep 1; echo done", stdout=stdout, stderr=stderr, timeout_s=120)), daemon=True)
            step.start()
            deadline = time.monotonic() + 30
            while stdout.total_bytes < len("started\n") and time.monotonic() < deadline:
                time.sleep(0.02)
            # The step runs; our KEXINIT goes out now and reaches sshd after the step's CLOSE came.
            link.hold_next_uplink(3.0)
            rekey = threading.Thread(target=paramiko_transport.renegotiate_keys, daemon=True)
            rekey.start()
            step.join(120)
            rekey.join(60)
            stdout.close()
            stderr.close()
            assert outcome and outcome[0].exit_code == 0, (outcome, stderr.text())  # type: ignore[attr-defined]
            assert stdout.text() == "started\ndone\n"
            assert paramiko_transport.is_active()
            # The connection goes on: the next step runs on it.
            again, out, _ = returns_within(60, lambda: run(transport, "echo next"), "the next step")
            assert again.exit_code == 0 and out.text() == "next\n"
    finally:
        link.close()
