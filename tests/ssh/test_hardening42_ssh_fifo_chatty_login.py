"""A fetch over SSH of a named pipe that no process writes to says so on a host whose login
prints on stderr first.

The copy's script says on stderr that the source is a FIFO before `cat` waits in open() for a
writer (test_hardening41_ssh_fifo_no_writer.py). Only a stderr that *started* with that line was
read as the FIFO's: where the login shell or sshd wrote before the command ran ("Could not chdir
to home directory", a `conda.sh: No such file or directory` from ~/.bashrc, a setlocale warning),
the stall was blamed on "the host's disk or home directory hangs (a stuck NFS mount?)".

The host is real: sshd whose ForceCommand (tests/ssh/test_fleet_faults.FreshHost) prints what a
broken ~/.bashrc prints before it runs the command.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

from tests.ssh.test_fleet_faults import fresh_server
from tests.ssh.test_hardening41_ssh_fifo_no_writer import STALL_S, fifo_fetch_given_up
from tests.sshd_fixture import ClientSetup, SshServer

_RC_CHATTER = "bash: /opt/conda/etc/profile.d/conda.sh: No such file or directory"


def test_a_fifo_with_no_writer_is_named_after_the_logins_stderr(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport
    from spec_debug.runner.ssh_errors import RemoteFileError

    # 200 lines: more than the 4 KiB of stderr that was read, which ended before the mark even
    # where the check looked past the first line.
    fresh_server(client, sshd_factory, tmp_path, "chatty", banner=f"for ((i = 0; i < 200; i++)); do echo '{_RC_CHATTER}' >&2; done\n")
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    with SSHTransport.connect("chatty", client.options()) as transport:
        raised = fifo_fetch_given_up(transport, fifo, tmp_path / "back" / "server.log", monkeypatch)
        assert isinstance(raised, RemoteFileError), raised
        assert raised.message.endswith(
            f"cannot download {fifo}: no data read from it for {STALL_S:g} s: it is a FIFO (named pipe) and no process "
            "wrote to it (a reader waits until a writer opens it); the copy was given up"), raised.message
        assert "NFS" not in (raised.hint or "")
        echoed = StreamCapture("stdout")  # the connection serves the next step
        assert transport.run("echo still here", stdout=echoed, stderr=StreamCapture("stderr")).exit_code == 0
        assert echoed.text() == "still here\n"
    assert not (tmp_path / "back" / "server.log").exists()
