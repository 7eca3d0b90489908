"""`-o ConnectTimeout=+5` (or `ServerAliveInterval=+30`, `ConnectTimeout=1m+30`) stopped the run as
"is not a time", where ssh(1) takes it: each part of a time is read with strtol, which skips
blanks and takes a sign (openssh-portable: misc.c, convtime, `secs = strtol(p, &endp, 10)` then
`secs < 0` refused). OpenSSH 9.2 here: `ssh -G -o ConnectTimeout=+5 x` says `connecttimeout 5`,
`=-0` says 0, `=1m+30` says 90, `="1m 30"` says 90; `=-5` and `=++5` are "invalid time value".
Now read as ssh(1) reads them; a negative time is still refused.

The host is real: the fixture's sshd."""

from __future__ import annotations

from pathlib import Path

import paramiko
import pytest

from spec_debug.errors import SpecDebugError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh_config import resolve_target
from tests.ssh.test_hardening31_ssh_ansible_ssh_args import write_inventory
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize(("value", "seconds"), [("+5", 5.0), ("1m+30", 90.0), ("+1m", 60.0), ("1m 30", 90.0),
                                                (" 5", 5.0), ("1m-0", 60.0)])
def test_a_signed_or_spaced_time_reads_as_ssh_reads_it(value: str, seconds: float) -> None:
    target = resolve_target("gpu01", paramiko.SSHConfig(), ssh_options={"ConnectTimeout": value,
                                                                        "ServerAliveInterval": value})
    assert (target.connect_timeout_s, target.keepalive_s) == (seconds, seconds)


@pytest.mark.parametrize("value", ["-5", "++5", "+", "1m-1", "+-5"])
def test_a_negative_or_doubled_sign_is_still_refused(value: str) -> None:
    with pytest.raises(SpecDebugError) as refused:
        resolve_target("gpu01", paramiko.SSHConfig(), ssh_options={"ConnectTimeout": value})
    assert "is not a time" in str(refused.value)


def test_a_plus_signed_connect_timeout_logs_in(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, "        ansible_ssh_common_args: '-o ConnectTimeout=+5'\n")
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
