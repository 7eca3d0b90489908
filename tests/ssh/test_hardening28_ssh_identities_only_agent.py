"""IdentitiesOnly yes, no IdentityFile for the host, and the host's key in ssh-agent.

ssh(1) offers no agent key that no IdentityFile names (openssh-portable: sshconnect2.c,
pubkey_prepare), and says only "Permission denied (publickey)". spec-debug, refusing the same
way, said "no keys found (agent empty, no identity files)": the reader ran ssh-add for a key
the agent already held, and nothing changed. It now says the agent's keys were withheld by
IdentitiesOnly and how to name the key. The agent, the server and ssh(1) are real."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Callable

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def test_keys_withheld_by_identities_only_are_named_not_an_empty_agent(
    client: ClientSetup, sshd: SshServer, agent_at: Callable[[Path, list[str]], Path], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.ssh/id_* to fall back on
    client.trust(sshd)
    config = write_ssh_config(tmp_path / "config", {"strict": {
        "HostName": sshd.address, "Port": sshd.port, "IdentitiesOnly": "yes", "UserKnownHostsFile": str(client.known_hosts),
    }})
    refused = subprocess.run(["ssh", "-F", str(config), "-o", "BatchMode=yes", "strict", "true"],
                             capture_output=True, text=True, env={**os.environ}, stdin=subprocess.DEVNULL, timeout=30)
    assert refused.returncode == 255 and "Permission denied" in refused.stderr, refused.stderr  # ssh(1) refuses too
    with pytest.raises(AuthenticationError) as failed:
        SSHTransport.connect("strict", client.options(use_agent=True, ssh_config_path=config))
    message, hint = failed.value.message, failed.value.hint or ""
    assert "agent empty" not in message, message  # was "no keys found (agent empty, no identity files)"
    assert "IdentitiesOnly yes withholds the 1 key(s) ssh-agent holds: no IdentityFile names them" in message, message
    assert "name the host's key with IdentityFile" in hint, hint
