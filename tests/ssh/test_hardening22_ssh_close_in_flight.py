"""A step refused a channel for a moment after our last close does not kill a kept server.

On a host whose MaxSessions the kept channel of a background server (a vLLM server started by
an earlier step) and the next step's channel fill, the end-of-step check's channel (the second
channel that asks whether a finished step's processes are gone) is closed just before the next
step opens its own. sshd frees a closed session's slot only when it garbage-collects the
channel, before its next read (openssh-portable: serverloop.c, server_loop2; channels.c,
channel_garbage_collect): when our CLOSE and the next OPEN came in one read, a loaded host
refused the OPEN, and the refusal at once closed the oldest kept channel to make room: the
server's stdout closed and it died of SIGPIPE at its next line
(test_hardening21_reviewssh_check_keeps_servers failed so on a busy machine). Now a refusal is
retried for a moment before a kept channel is closed.

Real sshd with MaxSessions 2. The test holds the connection's sshd stopped (SIGSTOP) from the
check's start until the next step's OPEN is sent, so our CLOSE and that OPEN come in one read.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import spec_debug.runner.ssh as ssh_module
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, background_server, still_beating

# The step's sshd: the first ancestor of the step's shell named sshd (its session process).
WRITE_SSHD_PID = "p=$$; while [ \"$(cat /proc/$p/comm)\" != sshd ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done; echo $p > {file}; "


@pytest.fixture
def stopped() -> Iterator[list[int]]:
    pids: list[int] = []
    yield pids
    for pid in pids:
        try:
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass


def test_a_kept_server_survives_the_next_step_on_a_full_host(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped: list[int]
) -> None:
    server = sshd_factory("two", extra_config="MaxSessions 2\n")
    client.trust(server)
    client.alias("gpu", server)
    beat, pid_file = tmp_path / "server.beat", tmp_path / "sshd.pid"
    real_exec_script = ssh_module._exec_script

    def stop_after_start(*args: Any, **kwargs: Any) -> Any:
        started = real_exec_script(*args, **kwargs)
        sshd = int(pid_file.read_text())
        os.kill(sshd, signal.SIGSTOP)  # the check's answer, its CLOSE and the next OPEN wait
        stopped.append(sshd)
        threading.Timer(1.0, os.kill, (sshd, signal.SIGCONT)).start()
        return started

    monkeypatch.setattr(ssh_module, "_TREE_CHECK_TIMEOUT_S", 0.5)
    monkeypatch.setattr(ssh_module, "_exec_script", stop_after_start)
    with SSHTransport.connect("gpu", client.options()) as transport:
        step = WRITE_SSHD_PID.format(file=pid_file) + background_server(beat)
        first = transport.run(step, stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"), timeout_s=10)
        assert first.exit_code == 0
        monkeypatch.setattr(ssh_module, "_exec_script", real_exec_script)
        second = StreamCapture("stdout")
        outcome = transport.run("echo GPU0 H100", stdout=second, stderr=StreamCapture("stderr"), timeout_s=10)
        assert (outcome.exit_code, second.text()) == (0, "GPU0 H100\n")
        assert still_beating(beat), "the first step's server died"  # its next line, at once if alive
