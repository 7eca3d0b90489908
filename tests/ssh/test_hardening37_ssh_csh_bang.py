"""A file with `!` in its name copied to and from a host whose login shell is tcsh and whose
sshd offers no SFTP.

Without SFTP (hardened images drop sshd's `Subsystem sftp` line) files go over `/bin/sh -c
SCRIPT sh PATH` on an exec channel, a command line the login shell reads first. csh and tcsh
expand history inside single quotes too, also in `tcsh -c` (how sshd runs the login shell):
uploading `run!1.log` failed with "1.log: Event not found." and the step that needed it never
ran. A `!` now stands outside the quotes, as `\\!`, which every shell reads as `!`.

The host is real: an sshd with no Subsystem line, where this user's login shell is /usr/bin/tcsh.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.h8_helpers import SftpLineServer
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

pytestmark = pytest.mark.skipif(shutil.which("tcsh") is None, reason="tcsh is not installed")


def test_a_bang_in_a_file_name_survives_a_tcsh_login_without_sftp(
        client: ClientSetup, client_key: ClientKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[SshServer] = []

    def start(name: str, **kwargs: Any) -> SshServer:
        server = SftpLineServer(tmp_path / f"sshd-{name}", [client_key], **kwargs)  # no Subsystem sftp line
        started.append(server)
        return server.start()

    try:
        server = sshd_with_accounts("h37tcsh", start, tmp_path, monkeypatch, shell=shutil.which("tcsh"))
        client.trust(server)
        client.alias("cshbox", server)
        local = tmp_path / "run!1.log"
        local.write_bytes(b"accept_len=2.31\n")
        remote = tmp_path / "on-host" / "run!1.log"
        with SSHTransport.connect("cshbox", client.options()) as transport:
            transport.put(local, str(remote))
            out = StreamCapture("stdout")
            transport.run(f"echo \"$SHELL\"; cat '{remote}'", stdout=out, stderr=StreamCapture("stderr"))
            assert out.text() == f"{shutil.which('tcsh')}\naccept_len=2.31\n"
            transport.get(str(remote), tmp_path / "back" / "run!1.log")
        assert (tmp_path / "back" / "run!1.log").read_bytes() == b"accept_len=2.31\n"
    finally:
        for server in started:
            server.stop()
