"""A step over SSH that leaves a process holding only its stderr is told so, not "stdout and stderr".

`nohup server >/dev/null &` (or `server > log &`) sends the server's stdout away but keeps its
stderr on the step's channel: sshd sends one EOF for both streams, so the channel stays open and
the runner keeps it (ssh_background). The step's message said the process was "still writing to
this step's stdout and stderr", and the reader looked for a stdout redirection that was there.
The end-of-step check that the step's processes are alive (ssh._TREE_ALIVE_SCRIPT) now also says
which of their fds 1 and 2 are the channel's pipes.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup, SshServer

WRITER = 'while :; do echo tick; echo tock >&2; sleep 0.2; done'


def _kill_group(state: Path) -> None:
    try:
        pid = int((state / "server.pid").read_text())
        os.kill(pid, signal.SIGKILL)
    except (OSError, ValueError):
        pass


@pytest.mark.parametrize(("redirect", "streams"), [
    (">/dev/null", "stderr"),
    ("2>/dev/null", "stdout"),
    ("", "stdout and stderr"),
])
def test_the_message_names_the_streams_the_background_process_holds(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, redirect: str, streams: str
) -> None:
    state = tmp_path / "state"  # the "remote" host is this machine
    state.mkdir()
    playbook = tmp_path / "launch.yaml"
    playbook.write_text(
        "name: launch\nsteps:\n"
        f"  - id: launch\n    run: nohup bash -c 'echo $$ > {state}/server.pid; {WRITER}' {redirect} &\n"
    )
    out = tmp_path / "runs"
    try:
        cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out))
    finally:
        _kill_group(state)
    _, record = load_run(out)
    message = record["steps"][0]["message"] or ""
    assert f"left running in the background, still writing to this step's {streams}; " in message, message
