"""`ServerAliveInterval 1d` or `ServerAliveCountMax 500` (ssh(1) takes both: OpenSSH 9.2 `ssh -G
-o ServerAliveInterval=1d -o ServerAliveCountMax=500 h` here) ended every connect in an
OSError out of setsockopt: the TCP keepalive the interval is mirrored into has kernel bounds
(Linux include/net/tcp.h: MAX_TCP_KEEPIDLE and MAX_TCP_KEEPINTVL 32767 s, MAX_TCP_KEEPCNT 127;
EINVAL past them), and TCP_USER_TIMEOUT is a C int of milliseconds. Now each is kept within its
bound and the host is logged in to; the SSH keepalive itself keeps the configured interval.

The host is real: the fixture's sshd."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.runner.hosts import open_transport, resolve_hosts
from tests.ssh.test_hardening31_ssh_ansible_ssh_args import write_inventory
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize("options", ["-o ServerAliveInterval=1d", "-o ServerAliveCountMax=500",
                                     "-o ServerAliveInterval=3000w -o ServerAliveCountMax=1000"])
def test_a_long_keepalive_ssh_takes_logs_in(options: str, client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, f"        ansible_ssh_common_args: '{options}'\n")
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
