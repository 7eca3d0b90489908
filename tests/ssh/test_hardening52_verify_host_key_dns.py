"""`VerifyHostKeyDNS yes` (fleets that publish SSHFP records, and FreeBSD's default ssh_config):
ssh(1) may trust a host key the DNS vouches for that known_hosts lacks (openssh-portable:
sshconnect.c, verify_host_key). spec-debug reads no DNS records; where it refused such a key, the
message said only "not in known_hosts", leaving the user to guess why `ssh` got in. It now says
that SSHFP records are not checked, and the hint how to file the key."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize("value", ["yes", "ask"])
def test_an_unknown_key_under_verify_host_key_dns_says_dns_is_not_checked(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, value: str) -> None:
    client.known_hosts.write_text("")
    client.alias("gpu01", sshd, VerifyHostKeyDNS=value)
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert "is not in known_hosts" in error and "does not check the host's SSHFP records in DNS" in error, error
    assert "--accept-new" in done.stderr, done.stderr


def test_without_verify_host_key_dns_the_message_does_not_mention_dns(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.known_hosts.write_text("")
    client.alias("gpu01", sshd, VerifyHostKeyDNS="no")
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3 and "SSHFP" not in record["hosts"][0]["error"], record["hosts"][0]
