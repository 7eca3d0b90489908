"""An agent socket remembered as unreachable gives each later host the fix for how it reaches it.

The run remembers an ssh-agent socket that did not accept (or did not answer) so later logins
skip it at once. It kept the first host's whole message, fix included: a socket met first as
$SSH_AUTH_SOCK ("... or unset SSH_AUTH_SOCK") told a host reaching the same socket through
`IdentityAgent` to unset SSH_AUTH_SOCK too, which does nothing there; that host's fix is
`IdentityAgent none` (as before the two memories were merged into one).

The agent is a real unix socket with a full accept queue; the hosts are a real sshd.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_hardening23_ssh_unaccepting_agent import unaccepting_agent  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup, SshServer, returns_within


def _refused(client: ClientSetup, alias: str) -> str:
    with pytest.raises(AuthenticationError) as refused:
        returns_within(20.0, lambda: SSHTransport.connect(alias, client.options(use_agent=True)), "a login past the agent")
    return refused.value.message


def test_a_host_reaching_a_remembered_agent_through_identity_agent_gets_its_own_fix(
    client: ClientSetup, sshd: SshServer, unaccepting_agent: Path, tmp_path: Path  # noqa: F811
) -> None:
    client.alias("viaenv", sshd, IdentityFile=str(tmp_path / "absent_key"))
    client.alias("viaconfig", sshd, IdentityFile=str(tmp_path / "absent_key"), IdentityAgent=str(unaccepting_agent))
    first = _refused(client, "viaenv")
    assert "unset SSH_AUTH_SOCK" in first, first
    later = _refused(client, "viaconfig")
    assert "IdentityAgent" in later and "set IdentityAgent none" in later, later
    assert "unset SSH_AUTH_SOCK" not in later, later
