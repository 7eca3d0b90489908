"""A key whose line in the host's authorized_keys forces a command (`command="..."`, as keys
kept for backups, rsync or a single tool are set up): sshd runs that command in place of every
other, and says so to the client after the login ("FILE:LINE: key options: command", which
`ssh -v` prints as "Remote: ..."; openssh-portable: auth.c, auth_log_authopts).

Before: "the login shell did not run the command" with the generic hint that guessed at a
nologin shell, ForceCommand, or an `exit` in ~/.bashrc. Now the error names the authorized_keys
line sshd named and its command= option, and the hint says to take it off or use another key
(real sshd). A key line with other options (restrict, no-pty) or a forced command that runs the
command asked for (`command="$SSH_ORIGINAL_COMMAND"`-style wrappers) still runs steps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


def _keyed(sshd_factory: Callable[..., SshServer], client: ClientSetup, options: str) -> SshServer:
    server = sshd_factory("ak")
    line = server.authorized_keys_path.read_text().strip()
    server.authorized_keys_path.write_text(f"{options} {line}\n")
    client.trust(server)
    client.alias("gpu01", server)
    return server


@pytest.mark.parametrize(("options", "shown"), [
    ('command="/bin/true"', "exit code 0, no output"),
    ('restrict,command="echo backups only"', "exit code 0, it printed 'backups only'"),
])
def test_the_key_line_that_forces_a_command_is_named(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        options: str, shown: str) -> None:
    server = _keyed(sshd_factory, client, options)
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    host = record["hosts"][0]
    line = f"{server.authorized_keys_path}:1"
    assert host["error"] == (
        f"gpu01: the login shell did not run the command: the host's authorized_keys line that let the key in ({line}) "
        f"forces a command in place of every other, its command=\"...\" option ({shown})"
    ), host["error"]
    assert host["hint"] == (
        f"on the host, take command=\"...\" off line {line} (or ask its admin; such keys are often kept for backups "
        "or rsync), or log in with another key whose line has none (IdentityFile for this host in your ssh config)"
    ), host["hint"]


@pytest.mark.parametrize("options", ["restrict", "no-pty", 'command="eval \\"$SSH_ORIGINAL_COMMAND\\""'])
def test_a_line_that_lets_the_command_run_still_runs_steps(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        options: str) -> None:
    _keyed(sshd_factory, client, options)
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
