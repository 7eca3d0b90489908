"""An sftp-server started through a slow login shell gets as long to start as the shell takes.

sshd starts an external sftp-server as `$SHELL -c /usr/lib/openssh/sftp-server`
(openssh-portable session.c, do_child; Debian's and RHEL's default `Subsystem sftp` lines name
one), so the login's rc files run first. On an HPC login node whose ~/.bashrc loads conda and
modules from a shared file system for 20 s, the steps ran (slowly) and every copy failed: "the
host offers no working SFTP (no answer within 15 s): its sftp-server started and never
answered", and SFTP stayed off for the connection, where sftp(1) and scp(1) wait for it. The
SFTP start's wait is now ConnectTimeout plus twice the login's measured time; a server that
never answers still fails that way, once (test_hardening21_ssh_stuck_sftp).

The host is real: sshd with the external sftp-server and an rc file (BASH_ENV, as in
test_hardening9_login_rc) that sleeps; ConnectTimeout 3 stands for the 15 s default. It bounds
the key exchange too: at 1 s a loaded machine's login ran past it, so each wait here is scaled
to a ConnectTimeout a slow login fits in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import spec_debug.runner.ssh_sftp as ssh_sftp
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.ssh.test_fleet_faults import sftp_server_path
from tests.ssh.test_hardening9_login_rc import RcServer
from tests.ssh.test_transport import run
from tests.sshd_fixture import ClientKey, ClientSetup


def test_a_copy_waits_for_an_sftp_server_behind_a_slow_login_shell(client: ClientSetup, client_key: ClientKey, tmp_path: Path) -> None:
    rc_file = tmp_path / "rc"
    rc_file.write_text("sleep 3.3\n")  # conda init and `module load` on a shared file system: past ConnectTimeout
    server = RcServer(tmp_path / "sshd-slow", [client_key], subsystem=sftp_server_path(), rc_file=str(rc_file)).start()
    try:
        client.trust(server)
        client.alias("login01", server, ConnectTimeout=3)
        report = tmp_path / "report.txt"
        with SSHTransport.connect("login01", client.options()) as transport:
            outcome, _, _ = run(transport, f"echo 'acceptance rate 0.71' > {report}")
            assert outcome.exit_code == 0
            fetched = tmp_path / "fetched.txt"
            transport.get(str(report), fetched)
            assert fetched.read_text() == "acceptance rate 0.71\n"
    finally:
        server.stop()


def test_a_slow_sftp_subsystem_says_how_to_wait_for_it_and_then_works(
    client: ClientSetup, client_key: ClientKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Subsystem line that starts slowly by itself (a wrapper that logs or mounts first), the
    login quick: the wait is ConnectTimeout, and the hint now says so; raised, the copy works."""
    monkeypatch.setattr(ssh_sftp, "_SLOW_LOGIN_S", 60.0, raising=False)  # a loaded test machine's login adds nothing
    slow = tmp_path / "sftp-server-audited"  # sshd_config's Subsystem line drops quotes: a script, as sites write it
    slow.write_text(f"#!/bin/sh\nsleep 4\nexec {sftp_server_path()}\n")
    slow.chmod(0o755)
    server = RcServer(tmp_path / "sshd-slow-subsystem", [client_key], subsystem=str(slow), rc_file="/dev/null").start()
    try:
        client.trust(server)
        client.alias("quick", server, ConnectTimeout=3)
        client.alias("patient", server, ConnectTimeout=10)
        with SSHTransport.connect("quick", client.options()) as transport, pytest.raises(RemoteFileError) as silent:
            transport.get("/etc/hostname", tmp_path / "hostname")
        assert "no working SFTP (no answer within 3 s)" in silent.value.message
        assert "raise ConnectTimeout for the host" in (silent.value.hint or "")
        with SSHTransport.connect("patient", client.options()) as transport:
            transport.get("/etc/hostname", tmp_path / "hostname")
        assert (tmp_path / "hostname").read_text() == Path("/etc/hostname").read_text()
    finally:
        server.stop()
