"""A step whose environment is large: the exports used to ride in the exec request, which sshd
hands to the login shell as one argument, so a 100 KiB variable beside a 40 KiB script failed
on the host with "/bin/bash: Argument list too long" (exit 1) before anything ran. Linux
refuses one argument over 128 KiB (MAX_ARG_STRLEN, include/uapi/linux/binfmts.h). The exports
now travel on the channel's stdin with the script whenever the request would be too long."""

from __future__ import annotations

from typing import Iterator

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientSetup


@pytest.fixture
def transport(client: ClientSetup) -> Iterator[SSHTransport]:
    with SSHTransport.connect("target", client.options()) as connected:
        assert isinstance(connected, SSHTransport)
        yield connected


def test_a_100_kib_variable_beside_a_40_kib_script_runs(transport: SSHTransport) -> None:
    # a tokenizer vocabulary or a JSON launch config passed in the environment
    value = "tok'en \"$HOME\"\n" * (100 * 1024 // 15)
    script = "# " + "z" * 40_000 + "\nprintf '%s' \"$BIG\" | wc -c; echo \"$SMALL\""
    outcome, out, err = run(transport, script, env={"BIG": value, "SMALL": "kept"})
    assert outcome.exit_code == 0, err.text()
    assert out.text().split() == [str(len(value.encode())), "kept"]


def test_a_200_kib_variable_reaches_the_shell(transport: SSHTransport) -> None:
    value = "y" * (200 * 1024)
    outcome, out, err = run(transport, 'echo "${#BIG}"', env={"BIG": value})
    assert outcome.exit_code == 0, err.text()
    assert out.text().strip() == str(len(value))
