"""A timed-out SSH step's processes that left its tree are killed with it (as the local
runner's: tests/core/test_hardening40_orphan_kill.py).

The kill script found the step's processes by group and by parent. One whose parent had exited
was in neither (reparented to init): `(setsid server &)`, or a child forked as the tree was
killed whose parent then died of it (a loaded host whose shell was still forking at the
timeout, as test_transport.py's setsid sleep could be). It ran on after "process tree killed".
The script now also finds every process holding the write end of the step's output.

Nothing here depends on timing: the step waits until its escaped process has written its pid
and the kill comes at the step's timeout; a machine so slow that it had not makes the test
check less, never fail. The host is a real sshd on this machine, so its processes are ours to see.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import transport  # noqa: F401 - the fixture


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def _timed_out_leaving(transport: SSHTransport, command: str, pid_file: Path) -> bool:  # noqa: F811
    """Run command with a 3 s timeout; whether the process that wrote pid_file is still alive."""
    try:
        outcome = transport.run(command, stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"), timeout_s=3.0)
        assert outcome.timed_out, outcome
        # No pid written (whole, by a rename): the process was killed before it could write it.
        return pid_file.is_file() and _alive(int(pid_file.read_text()))
    finally:
        if pid_file.is_file() and _alive(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the survivor, by the pid it wrote


def test_a_server_started_as_setsid_in_a_subshell_is_killed_at_the_timeout(transport: SSHTransport,  # noqa: F811
                                                                            tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    command = (f"(setsid sh -c 'echo $$ > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}; exec sleep 300' &); "
               f"until [ -s {pid_file} ]; do sleep 0.05; done; sleep 600")
    assert not _timed_out_leaving(transport, command, pid_file), "the server ran on after 'process tree killed'"


def test_a_child_forked_as_the_tree_is_killed_is_killed_too(transport: SSHTransport, tmp_path: Path) -> None:  # noqa: F811
    pid_file = tmp_path / "late.pid"
    command = (f"trap '(setsid sh -c \"echo \\$\\$ > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}; exec sleep 300\" &); "
               "exit 1' TERM; sleep 600 & wait")
    assert not _timed_out_leaving(transport, command, pid_file), "the child forked by the dying step ran on"
