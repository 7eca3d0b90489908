"""A bash login whose rc file is slow (a `module load` on a stalled NFS, in $BASH_ENV or
~/.bashrc): bash reads it before the step's command, so a step that timed out (or was
interrupted) meanwhile had no pid line to kill, and its command ran once the rc file ended,
after the run had recorded it as timed out. sshd now signals the session's process group
(a "signal" channel request) before the command starts.

The login is not root's: sshd refuses the signal after a root login (it drops privilege
separation for root: "session signalling requires privilege separation"), where the step
still starts once the rc file ends within ConnectTimeout, and is then killed by its pid."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer

UID = 4242  # an account that is not root: sshd keeps privilege separation for it


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder the test account can reach (pytest's own are root's alone)."""
    path = Path(tempfile.mkdtemp(prefix="spec-debug-h30-"))
    path.chmod(0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.mark.skipif(os.getuid() != 0, reason="makes an account of another uid: needs root")
def test_a_step_that_timed_out_in_a_slow_rc_file_never_runs(client: ClientSetup, tmp_path: Path, open_dir: Path,
                                                             client_key: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rc = open_dir / "bash_env"
    slow = open_dir / "slow"  # the connection's own first command is not slowed
    rc.write_text(f"[ -e {slow} ] && sleep 0.8\n")
    rc.chmod(0o644)
    ran = open_dir / "ran"
    servers: list[SshServer] = []

    def start(name: str, **kwargs: Any) -> SshServer:
        # the server's folder too: sshd reads authorized_keys as the account logging in
        server = SshServer(open_dir / f"sshd-{name}", [client_key], set_env=f"BASH_ENV={rc}", **kwargs)
        servers.append(server)
        return server.start()

    account = f"h30rc:x:{UID}:{UID}:h30:{open_dir}:/bin/bash"
    try:
        server = sshd_with_accounts("h30slowrc", start, tmp_path, monkeypatch, more_accounts=(account,))
        client.trust(server)
        client.alias("gpu", server, User="h30rc")
        with SSHTransport.connect("gpu", client.options()) as transport:
            slow.touch()
            outcome = run(transport, f"touch {ran}", timeout_s=0.3)[0]
            time.sleep(1.0)  # where bash was not killed, the step runs once $BASH_ENV ends
    finally:
        for server in servers:
            server.stop()
    assert outcome.timed_out and outcome.exit_code is None and outcome.left_running is None, outcome
    assert not ran.exists()

