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

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup


def test_a_setsid_server_writing_to_the_step_stdout_lets_the_step_end(client: ClientSetup) -> None:
    with SSHTransport.connect("target", client.options()) as transport:
        stdout = StreamCapture("stdout")
        outcome = transport.run(
            # The server writes for 60 s, past the step's timeout of 30 s: a step that read its
            # lines as held-back output for as long as they came is killed as timed out. Which of
            # the two happened is the check, not how long the step took: the good path takes
            # about 4 s (the drain, the check, the held-output read), which a loaded 2-core CI
            # machine stretched past the 5.5 s bound this test had. It ends by itself in 60 s
            # at most (a setsid process outlives the test's sshd), at its first line once sshd
            # has closed the session's pipe. "started" is echoed before the server starts: after
            # it (`server & echo started`) the server's first "serving" came first now and then
            # (20 runs in 3000 of that shell line on a loaded machine).
            "echo started; setsid sh -c 'for i in $(seq 300); do echo serving; sleep 0.2; done' &",
            stdout=stdout, stderr=StreamCapture("stderr"), timeout_s=30,
        )
        assert not outcome.timed_out and outcome.exit_code == 0
        assert stdout.text().startswith("started\n")
