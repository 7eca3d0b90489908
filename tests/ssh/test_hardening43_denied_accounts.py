"""An account the host's sshd does not let in (AllowUsers, AllowGroups, DenyUsers) is refused
with the same "Permission denied" as a wrong key, whatever the key: the hint sent people to
check User and IdentityFile only, and the key was right.

The server is a real sshd whose DenyUsers lists the account; the key is in its authorized_keys.
"""

from __future__ import annotations

from typing import Callable

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_refused_login_hints_at_the_hosts_allow_and_deny_lists(client: ClientSetup, sshd_factory: Callable[..., SshServer]) -> None:
    server = sshd_factory("denied", extra_config="DenyUsers nobody\n")
    client.trust(server)
    client.alias("gpu05", server, User="nobody")
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu05", client.options())
    said, hint = refused.value.message, refused.value.hint or ""
    assert said == f"gpu05: authentication failed for nobody@127.0.0.1:{server.port} (tried: {client.key.path})", said
    assert hint.startswith("check User and IdentityFile in your ssh config"), hint
    assert "the host's sshd may not let nobody in at all (AllowUsers, AllowGroups, DenyUsers" in hint, hint
    assert '"not allowed because"' in hint, hint
