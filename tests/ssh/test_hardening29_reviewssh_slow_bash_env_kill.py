"""Under a login shell that is not bash, round 29 moved the wrapper's pid line into the bash that
runs the step, after that bash read $BASH_ENV (so what it prints is dropped). A Ctrl-C while
$BASH_ENV still ran (a `module load` on a slow NFS) then had no pid to kill: the step was
recorded as left running, and ran once $BASH_ENV ended. The login shell prints its pid first
now (the same pid: the new bash is exec'ed, or is its child), and the step is killed at once.

$BASH_ENV waits on a gate the test opens (not a fixed sleep): the Ctrl-C comes once the step's
bash is inside it, the gate opens once the run returned, and the test waits for that bash to
be gone (killed, or done with the step) before it looks for the step's file. With a 0.8 s sleep
and a Ctrl-C 0.3 s in, a loaded host (two xdist workers on two cores) ran the step before the
kill came, or the Ctrl-C before the step's shell started."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer

_PATIENCE_S = 60.0  # a bound on each wait for a condition, never reached unless it is broken


def _wait_for(condition: Callable[[], bool]) -> bool:
    until = time.monotonic() + _PATIENCE_S
    while not condition():
        if time.monotonic() > until:
            return False
        time.sleep(0.02)
    return True


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.skipif(not Path("/usr/bin/zsh").exists(), reason="no zsh")
def test_ctrl_c_while_bash_env_runs_kills_the_step(client: ClientSetup, tmp_path: Path,
                                                    sshd_factory: Callable[..., SshServer],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    rc = tmp_path / "bash_env"
    gated = tmp_path / "gated"  # the connection's own first command is not held
    entered = tmp_path / "entered"  # the pid of each bash held at the gate, one a line
    release = tmp_path / "release"
    rc.write_text(f"echo 'module: cuda loaded'\n"
                  f"if [ -e {gated} ]; then echo $$ >> {entered}; while [ ! -e {release} ]; do sleep 0.02; done; fi\n")
    ran = tmp_path / "ran"

    def start(name: str, **kwargs: object) -> SshServer:
        return sshd_factory(name, set_env=f"BASH_ENV={rc}", **kwargs)

    server = sshd_with_accounts("h29slowenv", start, tmp_path, monkeypatch, shell="/usr/bin/zsh")
    client.trust(server)
    client.alias("gpu", server)

    def held() -> list[int]:
        return [int(line) for line in entered.read_text().split()] if entered.exists() else []

    try:
        with SSHTransport.connect("gpu", client.options()) as transport:
            gated.touch()

            def ctrl_c_once_held() -> None:
                _wait_for(lambda: bool(held()))
                transport.interrupt()

            threading.Thread(target=ctrl_c_once_held, daemon=True).start()
            outcome = run(transport, f"touch {ran}")[0]
    finally:
        release.touch()
    assert held(), "the step's bash never reached $BASH_ENV"
    assert (outcome.exit_code, outcome.left_running) == (None, None), outcome
    # where $BASH_ENV was not killed, the step runs once the gate opens, and its bash then ends
    assert _wait_for(lambda: not any(_alive(pid) for pid in held()))
    assert not ran.exists()
