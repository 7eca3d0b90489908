"""A machine with no ssh-agent at all (a CI runner, cron, a fresh login node: SSH_AUTH_SOCK
unset or empty) and no key files: the login failed as "no keys found (agent empty, no identity
files)". The reader ran ssh-add for an agent that was never there ("Could not open a connection
to your authentication agent"). The message says there is no agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import PLAYBOOK
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


@pytest.mark.parametrize("agent_socket", [None, ""])
def test_no_agent_at_all_is_not_an_empty_agent(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, agent_socket: str | None) -> None:
    client.hosts["gpu01"] = {"HostName": sshd.address, "Port": sshd.port, "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", "gpu01", "--batch", "--out", str(tmp_path / "runs"),
               env=None if agent_socket is None else {"SSH_AUTH_SOCK": agent_socket})
    assert done.code == 3, done.stdout + done.stderr
    assert "(tried: no keys found (no ssh-agent: SSH_AUTH_SOCK is not set, no identity files))" in done.stderr, done.stderr
    assert "agent empty" not in done.stderr, done.stderr
