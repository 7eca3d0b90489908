"""A fetch over SSH of a named pipe that no process writes to says so.

A FIFO is copied over `cat` (sftp-server cannot read one: test_hardening40_ssh_fifo_fetch.py),
which waits in open() until a writer opens it. The copy gave up after the stall limit and said
"the host did not move any data ... the host's disk or home directory hangs (a stuck NFS
mount?)", where the log's writer (a server not started, writing elsewhere) was the cause."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.sshd_fixture import ClientSetup

# The stall limit (120 s in a run). Not 1 s: the host's shell must have started and said the
# source is a FIFO before it, which a loaded 2-core machine may take seconds to do.
STALL_S = 20.0


def test_a_fifo_with_no_writer_is_said_to_be_one_over_ssh(client: ClientSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spec_debug.runner import ssh_sftp
    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport
    from spec_debug.runner.ssh_errors import RemoteFileError

    monkeypatch.setattr(ssh_sftp, "_STALL_S", STALL_S)
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    with SSHTransport.connect("target", client.options()) as transport:
        with pytest.raises(RemoteFileError) as info:
            transport.get(str(fifo), tmp_path / "back" / "server.log")
        assert info.value.message.endswith(
            f"cannot download {fifo}: no data read from it for {STALL_S:g} s: it is a FIFO (named pipe) and no process "
            "wrote to it (a reader waits until a writer opens it); the copy was given up"), info.value.message
        assert "NFS" not in (info.value.hint or "")
        echoed = StreamCapture("stdout")  # the connection serves the next step
        assert transport.run("echo still here", stdout=echoed, stderr=StreamCapture("stderr")).exit_code == 0
        assert echoed.text() == "still here\n"
    assert not (tmp_path / "back" / "server.log").exists()
