"""A step that starts a server with setsid, its log still on the step's stdout, ends as before.

The check that reads output still on its way after the exit status (a key exchange holds it
back: test_hardening21_ssh_output_after_exit) looks for the step's group and session on the
host. A server started with `setsid` (or through sudo as another user) is in neither: the check
said the step's processes were all gone, and the server's log lines, one every few tenths of a
second, were read as held-back output for as long as they came. The step ran to its timeout and
was killed as hung (with no timeout it never ended); before the check it ended in about 1 s
with the server left running in the background.
"""

from __future__ import annotations

import time

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup


def test_a_setsid_server_writing_to_the_step_stdout_lets_the_step_end(client: ClientSetup) -> None:
    with SSHTransport.connect("target", client.options()) as transport:
        stdout = StreamCapture("stdout")
        began = time.monotonic()
        outcome = transport.run(
            # Ends by itself in 12 s: a setsid process outlives the test's sshd.
            "setsid sh -c 'for i in $(seq 60); do echo serving; sleep 0.2; done' & echo started",
            stdout=stdout, stderr=StreamCapture("stderr"), timeout_s=6,
        )
        assert not outcome.timed_out and outcome.exit_code == 0
        assert stdout.text().startswith("started\n")
        assert time.monotonic() - began < 5.5
