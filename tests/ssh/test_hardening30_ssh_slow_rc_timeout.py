"""A bash login whose rc file is slow (a `module load` on a stalled NFS, in $BASH_ENV or
~/.bashrc): bash reads it before the step's command, so a step that timed out (or was
interrupted) meanwhile had no pid line to kill, and its command ran once the rc file ended,
after the run had recorded it as timed out. sshd now signals the session's process group
(a "signal" channel request) before the command starts. sshd refuses that signal after a root
login (it keeps no privilege separation for root: "session signalling requires privilege
separation"); there the wrapper does not start a step whose shell spent more than its timeout
in the rc files ($SECONDS)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

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
    rc.write_text(f"[ -e {slow} ] && sleep 0.6\n")
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
            time.sleep(0.6)  # where bash was not killed, the step runs once $BASH_ENV ends
    finally:
        for server in servers:
            server.stop()
    assert outcome.timed_out and outcome.exit_code is None and outcome.left_running is None, outcome
    assert not ran.exists()



def test_under_a_root_login_a_step_late_past_its_timeout_never_runs(client: ClientSetup, tmp_path: Path,
                                                                     sshd_factory: Callable[..., SshServer]) -> None:
    """sshd refuses the signal after a root login; the step's own wrapper then sees that its
    shell spent more than the step's timeout in the rc file ($SECONDS) and does not start it."""
    rc = tmp_path / "bash_env"
    ran = tmp_path / "ran"
    # Only the step's shell is slow (told by its command line, bash's BASH_EXECUTION_STRING), not
    # the kill's; $SECONDS is whole seconds: 2 is surely past the step's 0.2 s.
    rc.write_text(f"case \"$BASH_EXECUTION_STRING\" in *'touch {ran}'*) sleep 2.05;; esac\n")
    server = sshd_factory("h30slowrcroot", set_env=f"BASH_ENV={rc}")
    client.trust(server)
    client.alias("gpu", server)
    with SSHTransport.connect("gpu", client.options()) as transport:
        outcome = run(transport, f"touch {ran}", timeout_s=0.2)[0]  # returns once the pid line came, after the rc file
        after = run(transport, "echo still here")[1].text()
    assert outcome.timed_out and outcome.exit_code is None, outcome
    assert not ran.exists()
    assert after == "still here\n"
