"""A forced command that answers the SFTP request in the SFTP server's place is named as such.

Sites force every session through a wrapper (`Match Group users` + `ForceCommand`), which runs
the client's command from SSH_ORIGINAL_COMMAND through a shell or refuses it. For the SFTP
request that command is the Subsystem line's (`internal-sftp`: openssh-portable session.c,
do_exec), which tcsh answers "internal-sftp: Command not found." and a policy wrapper "no
sftp here", both with exit 1, on a stderr sshd drops for subsystems. Steps ran, every copy
failed with paramiko's "no working SFTP (EOF during negotiation)". It now says the program
that answered ended with exit code 1 before speaking SFTP, with the ForceCommand hint.

Real sshd with a tcsh ForceCommand wrapper, as csh sites write it.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.sshd_fixture import ClientSetup

TCSH = shutil.which("tcsh")


@pytest.mark.skipif(TCSH is None, reason="needs tcsh (CI installs it: .ci/run)")
def test_a_tcsh_forcecommand_wrapper_is_named_for_a_failed_copy(client: ClientSetup, sshd_factory: Any) -> None:
    server = sshd_factory("tcsh-wrapper", extra_config=f'Match all\n  ForceCommand {TCSH} -c "$SSH_ORIGINAL_COMMAND"\n')
    client.trust(server)
    client.alias("login01", server)
    with SSHTransport.connect("login01", client.options()) as transport:
        out = StreamCapture("stdout")
        assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0 and out.text() == "fine\n"
        with pytest.raises(RemoteFileError) as refused:
            transport.exists("/etc/hostname")
    assert refused.value.message == (
        "login01: the host offers no working SFTP: the program that answered the SFTP request ended with exit code 1 before speaking SFTP"
    )
    assert "ForceCommand" in (refused.value.hint or "") and "authorized_keys" in (refused.value.hint or "")
