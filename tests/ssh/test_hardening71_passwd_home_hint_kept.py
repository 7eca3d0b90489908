"""A name that resolves nowhere, when $HOME is not the account's home and ssh(1)'s config (the
passwd home's ~/.ssh/config) has a `Host` line for it: the note naming that file is added to the
"check the name" hint, not put in its place.

The alias may match a wildcard `Host gpu*` there while the user simply mistyped the name
(`gpubx`): ssh(1) would fail on it too, and the hint that said to check the name was gone.
openssh-portable ssh.c, main: `pw = getpwuid(getuid())`, then process_config_files reads
`pw->pw_dir/_PATH_SSH_USER_CONFFILE`. Real sshd; the passwd home is the test's own.
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

_ALIAS = "gpubox-h71k.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


def _passwd_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(home), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)


def _note(client: ClientSetup, account: Path, alias: str) -> str:
    theirs = account / ".ssh" / "config"
    return (f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {alias}`; ssh(1) reads "
            f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} (or HOME={account})")


def test_a_typo_matched_by_a_wildcard_there_keeps_the_check_the_name_hint(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    write_ssh_config(account / ".ssh" / "config", {"gpu*.invalid": {"User": "root"}})
    _passwd_home(monkeypatch, account)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(ssh_config_path=None))
    assert info.value.hint == f"{_note(client, account, _ALIAS)}; or {_CHECK}", info.value.hint
