"""A ProxyJump hop written with an empty port (`ProxyJump ops@bastion:`, `-J bastion:`), which
ssh(1) reads as no port: the hop's own config Port, else 22 (openssh-portable: misc.c,
parse_user_host_port reads a port only where text follows the colon; OpenSSH 9.2 `ssh -G -J
ops@bastion: gpu01` says `proxyjump ops@bastion`). A template that renders an unset port var
(`ProxyJump {{ user }}@{{ bastion }}:{{ port }}`) writes it.

Before: the hop was refused "cannot parse host 'ops@bastion:'", and with it every host behind
the bastion, where `ssh` reaches them. Now the hop is the bastion on its config's port. A bare
IPv6 hop ending in `::` is still refused, as ssh(1) refuses it. Real sshd: a host is reached
through a bastion named `bastion:`.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Callable

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_target import Destination, JumpHop, parse_proxy_jump
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh_g_jump(value: str) -> str | None:
    """`ssh -G -J VALUE gpu01`'s proxyjump, "" where ssh refuses it, None without ssh."""
    if not shutil.which("ssh"):
        return None
    done = subprocess.run(["ssh", "-G", "-F", "/dev/null", "-J", value, "gpu01"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    return next((line[10:] for line in done.stdout.splitlines() if line.startswith("proxyjump ")), "")


@pytest.mark.parametrize("value, hops, seen", [
    ("ops@bastion:", (Destination("bastion", user="ops"),), "ops@bastion"),
    ("bastion:", (Destination("bastion"),), "bastion"),
    ("[::1]:", (Destination("::1"),), "[::1]"),
    ("login:,ops@gpu-gw:2200", (Destination("login"), Destination("gpu-gw", user="ops", port=2200)), "login:,ops@gpu-gw:2200"),
])
def test_an_empty_hop_port_is_no_port(value: str, hops: tuple[Destination, ...], seen: str) -> None:
    assert parse_proxy_jump(value) == tuple(JumpHop(hop) for hop in hops)
    said = _ssh_g_jump(value)
    assert said is None or said == seen
    assert parse_ssh_args(f"-J {value}") == {"proxyjump": value}


def test_an_ipv6_hop_ending_in_two_colons_is_still_refused() -> None:
    with pytest.raises(UsageError) as refused:
        parse_proxy_jump("bastion::")
    assert refused.value.message == "ProxyJump 'bastion::': cannot parse host 'bastion::'"
    assert _ssh_g_jump("bastion::") in (None, "")


def test_a_host_is_reached_through_a_hop_with_an_empty_port(
        client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer]) -> None:
    bastion = sshd_factory("h76bastion")
    for server in (bastion, sshd):
        client.trust(server)
    client.alias("bastion", bastion)
    client.alias("behind", sshd, ProxyJump="bastion:")
    with SSHTransport.connect("behind", client.options()) as transport:
        assert [(hop.target.alias, hop.target.port) for hop in transport.connection.via] == [("bastion", bastion.port)]
        out = StreamCapture("stdout")
        transport.run("echo reached", stdout=out, stderr=StreamCapture("stderr"))
        assert out.text() == "reached\n"
