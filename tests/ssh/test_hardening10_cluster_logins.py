"""HPC and lab clusters where `ssh node` works with no key: Kerberos (GSSAPI) or host-based
trust between the cluster's own hosts. spec-debug cannot make those logins; it said only
"server does not accept public keys" or "authentication failed", with hints about keys and
PubkeyAuthentication that did not explain why ssh(1) got in."""

from __future__ import annotations

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup


@pytest.mark.parametrize(
    ("sshd_config", "named"),
    [
        ("GSSAPIAuthentication yes\nAuthenticationMethods gssapi-with-mic\n", "Kerberos (GSSAPI) logins"),
        ("HostbasedAuthentication yes\nAuthenticationMethods hostbased\n", "host-based logins (the cluster's HostbasedAuthentication)"),
    ],
    ids=["kerberos-only", "hostbased-only"],
)
def test_a_host_that_takes_only_cluster_logins_says_which(
    client: ClientSetup, sshd_factory: object, sshd_config: str, named: str
) -> None:
    server = sshd_factory("cluster", extra_config=sshd_config)  # type: ignore[operator]
    client.trust(server)
    client.alias("node01", server)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("node01", client.options())
    assert refused.value.message.startswith("node01: server does not accept public keys (allowed: "), refused.value.message
    assert f"the host takes only {named}, which ssh(1) makes and spec-debug cannot" in (refused.value.hint or "")


def test_a_refused_key_on_a_kerberos_cluster_says_how_to_make_one(client: ClientSetup, sshd_factory: object) -> None:
    """Keys allowed but ours not installed, Kerberos and host-based also allowed (a cluster's usual sshd)."""
    server = sshd_factory("cluster-keys", extra_config="GSSAPIAuthentication yes\nHostbasedAuthentication yes\n")  # type: ignore[operator]
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("node02", server)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("node02", client.options())
    message, hint = refused.value.message, refused.value.hint or ""
    assert "the host also takes Kerberos (GSSAPI) logins and host-based logins (the cluster's HostbasedAuthentication), " \
        "which spec-debug cannot make" in message, message
    assert "ssh-keygen -t ed25519" in hint and "authorized_keys" in hint, hint
