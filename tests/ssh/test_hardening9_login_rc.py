"""A login shell's startup file that misbehaves for non-interactive shells. sshd runs every
command, and an external sftp-server, as `$SHELL -c ...` (openssh-portable: session.c,
do_child), and Debian's bash then reads the rc file (SSH_SOURCE_BASHRC). Here the rc file is
BASH_ENV, which bash reads for every non-interactive shell, so the real ~/.bashrc is untouched."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError, RemoteShellError
from tests.ssh.h8_helpers import SftpLineServer
from tests.ssh.test_fleet_faults import sftp_server_path
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientKey, ClientSetup


@dataclass
class RcServer(SftpLineServer):
    """sshd whose sessions read `rc_file` first, with the external sftp-server (as Debian
    installs it: `Subsystem sftp /usr/lib/openssh/sftp-server`, started through the shell)."""

    rc_file: str = ""

    def _sshd_config(self) -> str:
        config = super()._sshd_config()
        # sshd keeps only the first SetEnv line (openssh-portable: servconf.c, sSetEnv), so the
        # variable joins the fixture's line.
        assert "SetEnv SHLVL=1\n" in config
        return config.replace("SetEnv SHLVL=1\n", f"SetEnv SHLVL=1 BASH_ENV={self.rc_file}\n")


@pytest.fixture
def rc_host(client: ClientSetup, client_key: ClientKey, tmp_path: Path) -> Iterator[Path]:
    """A host `rc` whose shell reads the file this yields (write it before connecting)."""
    rc_file = tmp_path / "rc"
    rc_file.write_text("")
    server = RcServer(tmp_path / "sshd-rc", [client_key], subsystem=sftp_server_path(), rc_file=str(rc_file)).start()
    try:
        client.trust(server)
        client.alias("rc", server)
        yield rc_file
    finally:
        server.stop()


def test_a_greeting_rc_sends_copies_over_cat_and_names_itself_when_one_fails(client: ClientSetup, rc_host: Path, tmp_path: Path) -> None:
    rc_host.write_text("echo 'Welcome to the GPU cluster!'\necho '42 jobs queued'\n")
    local = tmp_path / "bundle.py"
    local.write_text("print('probe')\n")
    with SSHTransport.connect("rc", client.options()) as transport:
        outcome, out, _ = run(transport, "echo 16")
        assert (outcome.exit_code, out.text()) == (0, "16\n")  # commands are not hurt
        # The greeting breaks SFTP; copies over `cat` skip it (ssh_sftp._DATA_MARK).
        transport.put(local, str(tmp_path / "uploaded.py"))
        assert (tmp_path / "uploaded.py").read_text() == "print('probe')\n"
        with pytest.raises(RemoteFileError) as info:
            transport.put(local, "/proc/uploaded.py")
    assert "the login shell prints 'Welcome to the GPU cluster!' for every command" in info.value.message


def test_a_quiet_stderr_greeting_still_copies(client: ClientSetup, rc_host: Path, tmp_path: Path) -> None:
    rc_host.write_text("echo 'Welcome to the GPU cluster!' >&2\n")
    local = tmp_path / "bundle.py"
    local.write_text("print('probe')\n")
    with SSHTransport.connect("rc", client.options()) as transport:
        transport.put(local, str(tmp_path / "uploaded.py"))
    assert (tmp_path / "uploaded.py").read_text() == "print('probe')\n"


def test_an_rc_that_exits_is_named_in_the_hint(client: ClientSetup, rc_host: Path) -> None:
    rc_host.write_text("exit\n")
    with pytest.raises(RemoteShellError) as info:
        SSHTransport.connect("rc", client.options())
    assert "did not run the command (exit code 0, no output)" in info.value.message
    assert "~/.bashrc" in (info.value.hint or "") and '[ -z "$PS1" ] && return' in (info.value.hint or "")
