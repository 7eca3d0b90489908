"""KnownHostsCommand's %u is this account as ssh(1) names it (the password database's entry
for our uid), not $USER: under `su` without `-` $USER still names the first account, and a key
service asked about "alice" answered for the wrong person (openssh-portable ssh.c takes
getpwuid(getuid()) for %u)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_hardening9_known_hosts_command import use_command
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


def test_percent_u_is_the_account_not_the_user_variable(client: ClientSetup, sshd: SshServer, tmp_path: Path,
                                                       monkeypatch) -> None:
    account = pwd.getpwuid(os.getuid()).pw_name
    monkeypatch.setenv("USER", "alice-before-su")
    monkeypatch.setenv("LOGNAME", "alice-before-su")
    log = tmp_path / "asked.log"
    script = tmp_path / "keys.sh"
    script.write_text(f"#!/bin/sh\necho \"$1\" >> {log}\nprintf '%s' '{sshd.known_hosts_line}'\n")
    script.chmod(0o755)
    use_command(client, sshd, tmp_path, f"{script} %u")
    with SSHTransport.connect("fleet", client.options()) as transport:
        outcome, out, _ = run(transport, "echo in")
        assert (outcome.exit_code, out.text()) == (0, "in\n")
    assert set(log.read_text().split()) == {account}
