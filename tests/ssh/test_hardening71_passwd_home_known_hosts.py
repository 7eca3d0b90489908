"""A host key not in $HOME's known_hosts but filed in the passwd home's, which ssh(1) reads:
the refusal says where the key is.

ssh(1) reads ~/.ssh/known_hosts under the passwd database's home (openssh-portable ssh.c, main:
`pw = getpwuid(getuid())`; readconf.c, fill_default_options: _PATH_SSH_USER_HOSTFILE, "~/.ssh/known_hosts",
tilde-expanded with that home). In a CI container job that sets HOME (GitHub Actions:
/github/home) the workflow's `ssh-keyscan >> ~/.ssh/known_hosts` as root files it in
/root/.ssh/known_hosts, and `ssh gpu01` connects; spec-debug said only "host key ... is not in
known_hosts" with "rerun with --accept-new": trusting a key blind that is filed, checked, one
folder away. Real sshd; the passwd home is the test's own.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner import ssh_key_files
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def _passwd_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(home), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)


def _default_known_hosts_alias(client: ClientSetup, sshd: SshServer, **extra: object) -> None:
    """`gpu01` reading the default ~/.ssh/known_hosts (no UserKnownHostsFile), which does not hold its key."""
    assert client.known_hosts == client.home / ".ssh" / "known_hosts"
    client.known_hosts.write_text("")  # the fixture trusted the shared sshd there
    client.hosts["gpu01"] = {"HostName": sshd.address, "Port": sshd.port, "IdentityFile": str(client.key.path),
                             "IdentitiesOnly": "yes", **extra}
    write_ssh_config(client.config, client.hosts)


def _refused(client: ClientSetup) -> HostKeyError:
    with pytest.raises(HostKeyError) as info:
        SSHTransport.connect("gpu01", client.options())
    return info.value


def _account_with_key(tmp_path: Path, sshd: SshServer, line: str | None = None) -> Path:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    (account / ".ssh" / "known_hosts").write_text("# keyscan\n" + (line if line is not None else sshd.known_hosts_line))
    return account


def test_a_key_filed_in_the_passwd_homes_known_hosts_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = _account_with_key(tmp_path, sshd)
    _passwd_home(monkeypatch, account)
    _default_known_hosts_alias(client, sshd)
    refused = _refused(client)
    assert f"host key for [{sshd.address}]:{sshd.port} is not in known_hosts" in refused.message, refused.message
    filed = account / ".ssh" / "known_hosts"
    assert refused.hint == (
        f"the same key is filed in {filed}:2, under this account's home in the passwd database, which ssh(1) reads; "
        f"spec-debug reads ~/.ssh/known_hosts under $HOME ({client.home}): set `UserKnownHostsFile {filed}` for the "
        f"host in your ssh config (or run with HOME={account})"
    ), refused.hint


def test_another_key_there_gets_no_note(
    client: ClientSetup, sshd: SshServer, sshd_factory: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A different key under that name vouches for nothing: no "the same key is filed" note.
    Round 72: it is ssh(1)'s changed key, refused as such (test_hardening72_passwd_home_changed_key)."""
    other = sshd_factory("other")  # type: ignore[operator]
    line = other.known_hosts_line.replace(f"]:{other.port}", f"]:{sshd.port}")
    _passwd_home(monkeypatch, _account_with_key(tmp_path, sshd, line))
    _default_known_hosts_alias(client, sshd)
    refused = _refused(client)
    assert "the same key is filed" not in (refused.hint or "")
    assert "refuses the host as HOST KEY CHANGED" in refused.message, refused.message


def test_a_configured_known_hosts_file_gets_no_note(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UserKnownHostsFile named: ssh(1) reads that file, under any home."""
    _passwd_home(monkeypatch, _account_with_key(tmp_path, sshd))
    _default_known_hosts_alias(client, sshd, UserKnownHostsFile=str(tmp_path / "own_known_hosts"))
    assert "passwd database" not in (_refused(client).hint or "")


def test_no_note_when_home_is_the_passwd_home(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _account_with_key(tmp_path, sshd)
    _passwd_home(monkeypatch, client.home)
    _default_known_hosts_alias(client, sshd)
    assert (_refused(client).hint or "").startswith("check the fingerprint with the host's owner")
