"""`-o ConnectionAttempts=1.5` in an inventory's ansible_ssh_common_args was read as one
attempt (float, then int), and the host was logged in to, where ssh(1) stops before any
connect: "command-line line 0: integer value invalid" (openssh-portable: readconf.c,
parse_int; misc.c, atoi_err; OpenSSH 9.2 `ssh -G -o ConnectionAttempts=1.5 h` here). A config
file's line was already refused; an `-o` now is too, for each integer keyword, as the host's
error with how to fix it. A whole number (`+2` too, as strtonum reads it) still logs in.

The host is real: the fixture's sshd."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import SpecDebugError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from tests.ssh.test_hardening31_ssh_ansible_ssh_args import write_inventory
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup, SshServer


@pytest.mark.parametrize(("option", "refusal"), [
    ("ConnectionAttempts=1.5", "ConnectionAttempts '1.5': integer value invalid"),
    ("NumberOfPasswordPrompts=2.0", "NumberOfPasswordPrompts '2.0': integer value invalid"),
    ("ServerAliveCountMax=-1", "ServerAliveCountMax '-1': integer value too small"),
    ("RequiredRSASize=2k", "RequiredRSASize '2k': integer value invalid"),
])
def test_an_integer_option_ssh_refuses_is_refused(option: str, refusal: str, client: ClientSetup, sshd: SshServer,
                                                   tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, f"        ansible_ssh_common_args: '-o {option}'\n")
    with pytest.raises(SpecDebugError) as refused:
        # refused as the inventory's ssh arguments are read (round 74), before any connect
        [spec] = resolve_hosts(["gpu01"], [], inventory, None)
        with open_transport(spec, client.options()):
            pass
    assert refusal in str(refused.value)
    assert refused.value.hint == "ssh(1) refuses it too; write a whole number (0 or more)"


@pytest.mark.parametrize("option", ["ConnectionAttempts=+2", "ConnectionAttempts=2", "ServerAliveCountMax=0"])
def test_a_whole_number_still_logs_in(option: str, client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    inventory = write_inventory(tmp_path, sshd, client.key, f"        ansible_ssh_common_args: '-o {option}'\n")
    [spec] = resolve_hosts(["gpu01"], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        outcome, stdout, _ = run(transport, "echo logged-in")
        assert (outcome.exit_code, stdout.text()) == (0, "logged-in\n")
