"""A jump host that refuses to forward because of the authorized_keys line of the key that
logged in to it (`restrict`, `no-port-forwarding`, a `permitopen=` list that leaves the target
out), as bastion keys are often set up.

Before: "it refuses to forward connections there (Administratively prohibited)" with a hint that
guessed at sshd_config (AllowTcpForwarding, DisableForwarding, PermitOpen) or the key's line,
and sent people to ask an admin to change sshd_config where their own key's line was the cause.
sshd tells the client that line's options after the login ("FILE:LINE: key options: ...";
openssh-portable: auth.c, auth_log_authopts); now the hint names the line and what in it
forbids the forwarding, and says sshd_config only where that line allows it (real sshd).
"""

from __future__ import annotations

from typing import Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientSetup, SshServer


def _refused(client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer], options: str,
             bastion_config: str = "") -> tuple[HostUnreachableError, SshServer]:
    bastion = sshd_factory("h77jump", extra_config=bastion_config)
    line = bastion.authorized_keys_path.read_text().strip()
    bastion.authorized_keys_path.write_text(f"{options} {line}\n".lstrip())
    client.trust(bastion)
    client.alias("bastion", bastion, ConnectTimeout=120)
    client.alias("behind", sshd, ProxyJump="bastion", ConnectTimeout=120)
    with pytest.raises(HostUnreachableError) as caught:
        SSHTransport.connect("behind", client.options())
    assert caught.value.message == (
        f"behind: jump host bastion could not open a connection to 127.0.0.1:{sshd.port}: "
        "it refuses to forward connections there (Administratively prohibited)"
    )
    return caught.value, bastion


@pytest.mark.parametrize(("options", "said"), [
    ("restrict", "none"),
    ("no-port-forwarding", "agent-forwarding pty user-rc x11-forwarding"),
])
def test_a_key_line_without_port_forwarding_is_named(
        client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer], options: str, said: str) -> None:
    refused, bastion = _refused(client, sshd, sshd_factory, options)
    assert refused.hint == (
        f"the line of your key in bastion's authorized_keys ({bastion.authorized_keys_path}:1) forbids forwarding "
        f"(restrict, or no-port-forwarding; sshd says its options are: {said}): add port-forwarding to that line "
        "(restrict,port-forwarding), or reach bastion with another key; `ssh -J` is refused the same way")


def test_a_permitopen_list_that_leaves_the_target_out_is_named(
        client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer]) -> None:
    refused, bastion = _refused(client, sshd, sshd_factory, 'permitopen="192.0.2.1:22"')
    assert refused.hint == (
        f"the line of your key in bastion's authorized_keys ({bastion.authorized_keys_path}:1) has a permitopen= list "
        f"that leaves 127.0.0.1:{sshd.port} out: add permitopen=\"127.0.0.1:{sshd.port}\" to it, or reach bastion "
        "with another key; `ssh -J` is refused the same way")


def test_where_the_key_line_allows_it_sshd_config_is_said(
        client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer]) -> None:
    refused, bastion = _refused(client, sshd, sshd_factory, "", "AllowTcpForwarding no\n")
    assert refused.hint == (
        f"bastion's sshd_config forbids it (AllowTcpForwarding no, DisableForwarding yes, a PermitOpen list; your key's "
        f"line, {bastion.authorized_keys_path}:1, allows forwarding); `ssh -J` is refused the same way: ask for "
        "forwarding to be allowed, or use another jump host")
