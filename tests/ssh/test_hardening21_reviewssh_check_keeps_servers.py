"""The check that a finished step's processes are gone does not cost an earlier step its server.

A step whose output stays open after its exit status (a process left in the background) is
checked over a second channel (test_hardening21_ssh_output_after_exit). On a host whose
MaxSessions the step's channel and the kept channels of earlier background servers fill, that
channel was refused, and the refusal closed the oldest kept channel to make room, as a new
step's channel does: sshd then closed that server's stdout, and the server died of SIGPIPE at
its next line (a vLLM server started by an earlier step, gone before the benchmark step). The
check is only worth a free slot: refused, the step is taken for a background one, as before.

Real sshd with MaxSessions 2: the first step's server, then a second step of the same kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, background_server, still_beating


def test_a_background_server_outlives_the_next_steps_check(client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    server = sshd_factory("two", extra_config="MaxSessions 2\n")
    client.trust(server)
    client.alias("gpu", server)
    first, second = tmp_path / "first.beat", tmp_path / "second.beat"
    with SSHTransport.connect("gpu", client.options()) as transport:
        for beat in (first, second):
            outcome = transport.run(background_server(beat), stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"), timeout_s=10)
            assert outcome.exit_code == 0
        assert still_beating(first), "the first step's server died"
        assert still_beating(second), "the second step's server died"
