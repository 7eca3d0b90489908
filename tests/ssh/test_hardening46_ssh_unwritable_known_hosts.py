"""StrictHostKeyChecking accept-new with a known_hosts that cannot be written says so.

ssh(1) accepts the new key for the connection and says "Failed to add the host to the list of
known hosts" (openssh-portable: sshconnect.c, check_host_key). The key was accepted but the
failed write was silent: every later run trusted the host afresh, and nobody learnt why it was
never filed. The run still goes on (as in ssh), and now says the cause and the fix on stderr.

The host is real (tests/sshd_fixture.py); the known_hosts path lies under a regular file, which
no user, root included, can create (the tests run as root, so chmod would not do).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli
from tests.sshd_fixture import ClientSetup, SshServer


def test_accept_new_with_an_unwritable_known_hosts_warns_and_runs(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    known_hosts = blocker / "known_hosts"
    client.alias("gpu7", sshd, StrictHostKeyChecking="accept-new", UserKnownHostsFile=str(known_hosts))
    playbook = tmp_path / "hello.yaml"
    playbook.write_text("name: hello\nsteps:\n  - id: hello\n    run: echo hi\n")
    result = cli("run", str(playbook), "--host", "gpu7", "-F", str(client.config), "--batch", "--out", str(tmp_path / "out"), timeout=60)
    assert_clean_cli(result)
    assert result.code == 0
    warning = next(line for line in result.stderr.splitlines() if "could not add the host key" in line)
    assert warning == (
        f"gpu7: warning: could not add the host key of {sshd.known_hosts_name} to {known_hosts} ({blocker} is not a directory); "
        f"it is trusted for this run only: make {known_hosts} writable, or set UserKnownHostsFile to a writable file"
    )
    assert blocker.read_text() == ""


def test_accept_new_with_a_writable_known_hosts_files_the_key_without_a_warning(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    known_hosts = tmp_path / "kh" / "known_hosts"
    client.alias("gpu8", sshd, StrictHostKeyChecking="accept-new", UserKnownHostsFile=str(known_hosts))
    playbook = tmp_path / "hello.yaml"
    playbook.write_text("name: hello\nsteps:\n  - id: hello\n    run: echo hi\n")
    result = cli("run", str(playbook), "--host", "gpu8", "-F", str(client.config), "--batch", "--out", str(tmp_path / "out"), timeout=60)
    assert result.code == 0
    assert "could not add" not in result.stderr
    assert sshd.known_hosts_name in known_hosts.read_text()
