"""A step over SSH that leaves a background pipeline running is told which of its streams the
pipeline holds, not every stream some process in it has a pipe on.

`server 2>&1 | tee server.log >/dev/null &` keeps only tee's stderr on the step's channel: the
server's stdout and stderr go into the pipe to tee, which the step's own processes read. The
end-of-step check (ssh._TREE_ALIVE_SCRIPT) counted any fd 1 or 2 that is a pipe as the channel's,
so the message said "still writing to this step's stdout and stderr". A pipe that a process of the
step reads (its fd 0) is now not counted as the channel's.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup, SshServer

WRITER = "while :; do echo tick; echo tock >&2; sleep 0.2; done"


def _kill_group(state: Path) -> None:
    try:
        pid = int((state / "server.pid").read_text())
        os.killpg(pid, signal.SIGKILL)
    except (OSError, ValueError):
        pass


@pytest.mark.parametrize(("tee_redirect", "streams"), [
    (">/dev/null", "stderr"),
    ("2>/dev/null", "stdout"),
    ("", "stdout and stderr"),
])
def test_a_background_pipeline_is_said_to_hold_only_the_streams_its_last_command_holds(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, tee_redirect: str, streams: str
) -> None:
    state = tmp_path / "state"  # the "remote" host is this machine
    state.mkdir()
    playbook = tmp_path / "launch.yaml"
    # setsid-free: the pipeline stays in the step's process group; its writer records the
    # group to kill (its pid is the group's only where it leads it: killpg of the wrapper's group).
    playbook.write_text(
        "name: launch\nsteps:\n"
        f"  - id: launch\n    run: bash -c 'ps -o pgid= $$ > {state}/server.pid; {WRITER}' 2>&1 | tee {state}/server.log {tee_redirect} &\n"
    )
    out = tmp_path / "runs"
    try:
        cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out))
    finally:
        _kill_group(state)
    _, record = load_run(out)
    message = record["steps"][0]["message"] or ""
    assert f"left running in the background, still writing to this step's {streams}; " in message, message
    assert "tick" in (state / "server.log").read_text()
