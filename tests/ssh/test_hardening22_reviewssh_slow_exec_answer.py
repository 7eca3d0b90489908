"""A step whose exec request a loaded but healthy sshd answers late is not cut off.

The wait for sshd's answer to a step's exec request (ssh_transport.answered_within, added for
an sshd that opens a channel and freezes) was ConnectTimeout alone. Sites set ConnectTimeout
2-5 s to fail fast on hosts that are down; on a loaded host sshd can take that long to fork the
step's command, and the step failed as "did not start its command within 2 s" on a host that
was only slow. The wait is now at least ssh_transport.REQUEST_ANSWER_FLOOR_S (10 s).

Real sshd: the test stops the connection's sshd (SIGSTOP) for 4 s between the channel's open
and the step's exec request, with ConnectTimeout 3.
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
import spec_debug.runner.ssh as ssh_module
from tests.ssh.test_hardening22_ssh_frozen_exec import WRITE_SSHD_PID, _within, frozen  # noqa: F401 - fixture
from tests.sshd_fixture import ClientSetup, SshServer

_SLOW_S = 4.0  # over ConnectTimeout 3, well under the 10 s floor


def test_a_step_whose_exec_answer_takes_longer_than_connect_timeout_runs(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frozen: list[int]  # noqa: F811
) -> None:
    server = sshd_factory("slow-exec")
    client.trust(server)
    # 3 s, not 2: ConnectTimeout bounds the login too, and a loaded machine's ran past 2 s.
    client.alias("gpu", server, ConnectTimeout=3)
    pid_file = tmp_path / "sshd.pid"
    with SSHTransport.connect("gpu", client.options()) as transport:
        first = transport.run(WRITE_SSHD_PID.format(file=pid_file), stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
        assert first.exit_code == 0
        sshd = int(pid_file.read_text())
        # The thaw is timed from the freeze, which comes once the step's channel is open: timed
        # from before the step, a loaded machine's slow channel open let it come first, and the
        # freeze then lasted for good.
        thaws: list[threading.Timer] = []
        send_environment = ssh_module._send_environment

        def freeze_for_a_while(*args: object, **kwargs: object) -> object:
            if not thaws:
                os.kill(sshd, signal.SIGSTOP)
                frozen.append(sshd)
                thaws.append(threading.Timer(_SLOW_S, os.kill, (sshd, signal.SIGCONT)))
                thaws[0].start()
            return send_environment(*args, **kwargs)

        monkeypatch.setattr(ssh_module, "_send_environment", freeze_for_a_while)
        stdout = StreamCapture("stdout")
        outcome = _within(30.0, lambda: transport.run("echo 'GPU 0: NVIDIA H100'", stdout=stdout, stderr=StreamCapture("stderr")))
        for thaw in thaws:
            thaw.join()
    assert thaws, "the step never reached its exec request"
    assert (outcome.exit_code, stdout.text()) == (0, "GPU 0: NVIDIA H100\n")
