"""A login shell that is not bash (zsh, fish, tcsh): the step runs in a bash the wrapper starts,
and that bash reads $BASH_ENV (bash(1), INVOCATION: every non-interactive bash). With a bash
login, what the rc file prints comes before the wrapper's pid marker and is dropped; through
zsh/fish/tcsh it came after the marker, into the step's captured stdout. And under zsh a step
too long to be an argument (sent on stdin) ran nothing and passed: zsh's MULTIOS read the
wrapper's `| bash ... 3<&0 </dev/null` as two inputs, and fd 3 held neither."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer

# fish stands for tcsh too: both hand the wrapper to /bin/sh (ssh.VIA_SH); zsh runs it itself.
SHELLS = [s for s in ("/usr/bin/zsh", "/usr/bin/fish") if shutil.which(s)]


@pytest.mark.parametrize("shell", SHELLS, ids=[Path(s).name for s in SHELLS])
def test_what_bash_env_prints_is_not_the_steps_output(shell: str, client: ClientSetup, tmp_path: Path,
                                                       sshd_factory: Callable[..., SshServer],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rc = tmp_path / "bash_env"
    rc.write_text("echo 'module: cuda/12.4 loaded'\necho 'rc note' >&2\nexport FROM_RC=yes\n")

    def start(name: str, **kwargs: object) -> SshServer:
        return sshd_factory(name, set_env=f"BASH_ENV={rc}", **kwargs)

    server = sshd_with_accounts("h29" + Path(shell).name, start, tmp_path, monkeypatch, shell=shell)
    client.trust(server)
    client.alias("gpu", server)
    with SSHTransport.connect("gpu", client.options()) as transport:
        outcome, out, err = run(transport, 'echo "ran from_rc=$FROM_RC"')
        long_out = run(transport, "echo long; : " + "x" * 200_000)[1]
    assert (outcome.exit_code, out.text(), err.text(), long_out.text()) == (0, "ran from_rc=yes\n", "", "long\n")
