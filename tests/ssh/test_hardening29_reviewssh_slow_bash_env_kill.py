"""Under a login shell that is not bash, round 29 moved the wrapper's pid line into the bash that
runs the step, after that bash read $BASH_ENV (so what it prints is dropped). A Ctrl-C while
$BASH_ENV still ran (a `module load` on a slow NFS) then had no pid to kill: the step was
recorded as left running, and ran once $BASH_ENV ended. The login shell prints its pid first
now (the same pid: the new bash is exec'ed, or is its child), and the step is killed at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.skipif(not Path("/usr/bin/zsh").exists(), reason="no zsh")
def test_ctrl_c_while_bash_env_runs_kills_the_step(client: ClientSetup, tmp_path: Path,
                                                    sshd_factory: Callable[..., SshServer],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    rc = tmp_path / "bash_env"
    slow = tmp_path / "slow"  # the connection's own first command is not slowed
    rc.write_text(f"echo 'module: cuda loaded'\n[ -e {slow} ] && sleep 0.8\n")
    ran = tmp_path / "ran"

    def start(name: str, **kwargs: object) -> SshServer:
        return sshd_factory(name, set_env=f"BASH_ENV={rc}", **kwargs)

    server = sshd_with_accounts("h29slowenv", start, tmp_path, monkeypatch, shell="/usr/bin/zsh")
    client.trust(server)
    client.alias("gpu", server)
    with SSHTransport.connect("gpu", client.options()) as transport:
        slow.touch()
        threading.Timer(0.3, transport.interrupt).start()
        outcome = run(transport, f"touch {ran}")[0]
    assert (outcome.exit_code, outcome.left_running) == (None, None), outcome
    time.sleep(0.8)  # where $BASH_ENV was not killed, the step runs once it ends
    assert not ran.exists()
