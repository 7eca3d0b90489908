"""`-o ConnectTimeout=2147483648` (or `ServerAliveInterval=9999999999`) was read as some 68 years,
where ssh(1) stops before any connect: "command-line line 0: invalid time value". A time is an
int of seconds there: each part and the sum must stay within INT_MAX (openssh-portable: misc.c,
convtime: `if (secs > INT_MAX / multiplier)`, `if (total > INT_MAX - secs)`; OpenSSH 9.2 `ssh -G
-o ConnectTimeout=2147483648 h` here refuses it, 2147483647 and 3000w are kept). Now refused too,
as the host's error; the largest time ssh(1) takes still logs in.

The host is real: the fixture's sshd."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import SpecDebugError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from tests.ssh.test_hardening31_ssh_ansible_ssh_args import write_inventory
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize("option", ["ConnectTimeout=2147483648", "ServerAliveInterval=9999999999",
                                    "ConnectTimeout=3551w", "ConnectTimeout=2147483647s1s"])
def test_a_time_past_int_max_is_refused(option: str, client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, f"        ansible_ssh_common_args: '-o {option}'\n")
    with pytest.raises(SpecDebugError) as refused:
        # refused as the inventory's ssh arguments are read (round 74), before any connect
        [spec] = resolve_hosts(["gpu01"], [], inventory, None)
        with open_transport(spec, client.options()):
            pass
    assert "is not a time" in str(refused.value) and option.split("=")[1] in str(refused.value)


@pytest.mark.parametrize("option", ["ConnectTimeout=2147483647", "ConnectTimeout=3000w"])
def test_the_largest_time_ssh_takes_still_logs_in(option: str, client: ClientSetup, sshd: SshServer,
                                                   tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, f"        ansible_ssh_common_args: '-o {option}'\n")
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
