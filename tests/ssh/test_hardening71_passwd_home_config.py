"""A host name that resolves nowhere, when $HOME is not the account's home: say which
~/.ssh/config ssh(1) reads.

ssh(1) reads `~/.ssh/config` from the passwd database's home, not $HOME (openssh-portable ssh.c,
main: `pw = getpwuid(getuid())`, then process_config_files reads `pw->pw_dir/_PATH_SSH_USER_CONFFILE`).
Under `sudo -E`, a CI container job that sets HOME (GitHub Actions: /github/home) or a pod's
env, `ssh gpubox` finds `Host gpubox` in that file while spec-debug, reading $HOME's, looked the
alias up as a DNS name and said only "cannot resolve host name 'gpubox'" with the hint "check
the name, or its HostName in your ssh config": the user checked the file ssh(1) reads and found
the alias there. The hint now names both files. Real sshd; the passwd home is the test's own.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from spec_debug.runner import ssh_key_files
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config

_ALIAS = "gpubox-h71.invalid"  # .invalid never resolves (RFC 6761)


def _passwd_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(home), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)


def _unreachable(client: ClientSetup, **options: object) -> HostUnreachableError:
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(**options))
    return info.value


def _account_home_with_alias(tmp_path: Path, sshd: SshServer) -> Path:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    write_ssh_config(account / ".ssh" / "config", {_ALIAS: {"HostName": sshd.address, "Port": sshd.port}})
    return account


def test_an_alias_only_in_the_passwd_homes_config_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = _account_home_with_alias(tmp_path, sshd)
    _passwd_home(monkeypatch, account)
    error = _unreachable(client, ssh_config_path=None)
    assert error.message.startswith(f"{_ALIAS}: cannot resolve host name {_ALIAS!r} ("), error.message
    assert error.hint == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_ALIAS}`; ssh(1) reads "
        f"{account / '.ssh' / 'config'}, under this account's home in the passwd database, which has: run with "
        f"-F {account / '.ssh' / 'config'} (or HOME={account}); or check the name, or its HostName in your ssh config"
    ), error.hint


def test_no_note_when_the_alias_is_not_in_the_passwd_homes_config(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    write_ssh_config(account / ".ssh" / "config", {"other": {"HostName": sshd.address, "Port": sshd.port}})
    _passwd_home(monkeypatch, account)
    assert _unreachable(client, ssh_config_path=None).hint == "check the name, or its HostName in your ssh config"


def test_no_note_when_home_is_the_passwd_home(client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _passwd_home(monkeypatch, client.home)
    assert _unreachable(client, ssh_config_path=None).hint == "check the name, or its HostName in your ssh config"


def test_no_note_under_an_explicit_config_file(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-F FILE`: ssh(1) reads that file only, under any home."""
    _passwd_home(monkeypatch, _account_home_with_alias(tmp_path, sshd))
    assert _unreachable(client).hint == "check the name, or its HostName in your ssh config"
