"""A key on a smart card (PKCS11Provider, `ssh -I`): named, with the way to use it.

Enterprise fleets log in with PIV smart cards and YubiKeys: `PKCS11Provider
/usr/lib/x86_64-linux-gnu/libykcs11.so` in ~/.ssh/config, no key file at all. ssh(1) loads the
library and signs with the card; paramiko cannot load it. spec-debug said "no keys found
(agent empty, no identity files)", which sent people looking for a key they never had; ssh-agent
can hold the card's keys (`ssh-add -s LIBRARY`), and spec-debug signs through the agent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer

PROVIDER = "/usr/lib/x86_64-linux-gnu/libykcs11.so.2"


def test_a_card_only_login_names_the_card_and_ssh_add_s(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpu01", sshd, IdentityFile="none", PKCS11Provider=PROVIDER)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu01", client.options())
    message = refused.value.message
    assert f"the keys of PKCS11Provider {PROVIDER} (a smart card or security token)" in message, message
    assert f"`ssh-add -s {PROVIDER}`" in (refused.value.hint or ""), refused.value.hint


def test_ssh_dash_capital_i_in_an_inventory_names_the_card_too(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text(
        "all:\n  hosts:\n    gpu01:\n"
        f"      ansible_host: {sshd.address}\n      ansible_port: {sshd.port}\n"
        f"      ansible_ssh_common_args: '-I {PROVIDER} -o IdentityFile=none -o UserKnownHostsFile={client.known_hosts}'\n"
    )
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with pytest.raises(AuthenticationError) as refused:
        open_transport(spec, client.options(ssh_config_path=Path("none")))
    assert f"PKCS11Provider {PROVIDER}" in refused.value.message, refused.value.message
