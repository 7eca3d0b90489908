"""Another key for the host in the passwd home's known_hosts, which ssh(1) reads where HOME is
set elsewhere (a CI container job, `sudo -E`): ssh(1) refuses the host as HOST KEY CHANGED,
StrictHostKeyChecking accept-new too (openssh-portable sshconnect.c, check_host_key,
HOST_CHANGED). spec-debug, reading $HOME's known_hosts only, said "not in known_hosts" and to
rerun with --accept-new, which then filed and trusted the key: a man-in-the-middle that ssh(1)
stops went through. Recorded with OpenSSH_9.2p1 against the tests' sshd: `ssh -o
UserKnownHostsFile=THAT_FILE -o StrictHostKeyChecking=accept-new` fails with "REMOTE HOST
IDENTIFICATION HAS CHANGED". Real sshd; the passwd home is the test's own."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.test_hardening71_passwd_home_known_hosts import (
    _account_with_key,
    _default_known_hosts_alias,
    _passwd_home,
)
from tests.sshd_fixture import ClientSetup, SshServer


def _fingerprint(line: str) -> str:
    done = subprocess.run(["ssh-keygen", "-l", "-f", "-"], input=line, capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.split()[1]


@pytest.mark.parametrize("accept_new", [False, True])
def test_another_key_in_the_passwd_homes_known_hosts_is_refused_as_changed(
    client: ClientSetup, sshd: SshServer, sshd_factory: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    accept_new: bool,
) -> None:
    other = sshd_factory("other")  # type: ignore[operator]
    line = other.known_hosts_line.replace(f"]:{other.port}", f"]:{sshd.port}")
    account = _account_with_key(tmp_path, sshd, line)
    filed = account / ".ssh" / "known_hosts"
    if shutil.which("ssh"):  # ssh(1) reading that file refuses the host, accept-new or not
        done = subprocess.run(
            ["ssh", "-F", str(client.config), "-o", f"UserKnownHostsFile={filed}", "-o", "StrictHostKeyChecking=accept-new",
             "-o", "BatchMode=yes", "-p", str(sshd.port), "-i", str(client.key.path), sshd.address, "true"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 255 and "REMOTE HOST IDENTIFICATION HAS CHANGED" in done.stderr, done.stderr
    _passwd_home(monkeypatch, account)
    _default_known_hosts_alias(client, sshd)
    name = f"[{sshd.address}]:{sshd.port}"
    with pytest.raises(HostKeyError) as info:
        SSHTransport.connect("gpu01", client.options(accept_new=accept_new))
    theirs = _fingerprint(line)
    assert f"but {filed}:2, under this account's home in the passwd database, which ssh(1) reads, files another key " \
           f"for it (" in info.value.message, info.value.message
    assert theirs in info.value.message and "refuses the host as HOST KEY CHANGED" in info.value.message
    assert info.value.message.endswith(", --accept-new or not") == accept_new, info.value.message
    assert info.value.hint == (
        f"check the fingerprint with the host's owner; if the host was reinstalled, remove the old key with "
        f"`ssh-keygen -R '{name}' -f {filed}` and rerun with --accept-new (spec-debug reads ~/.ssh/known_hosts under "
        f"$HOME ({client.home}), ssh(1) the passwd home's)")
    assert client.known_hosts.read_text() == ""  # nothing trusted


def test_a_key_of_another_type_there_is_not_a_changed_key(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    other = tmp_path / "ecdsa_other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-f", str(other)], check=True, capture_output=True)
    kind, blob = Path(f"{other}.pub").read_text().split()[:2]
    assert kind not in sshd.known_hosts_line
    _passwd_home(monkeypatch, _account_with_key(tmp_path, sshd, f"[{sshd.address}]:{sshd.port} {kind} {blob}\n"))
    _default_known_hosts_alias(client, sshd)
    with pytest.raises(HostKeyError) as info:
        SSHTransport.connect("gpu01", client.options())
    assert "HOST KEY CHANGED" not in info.value.message, info.value.message
