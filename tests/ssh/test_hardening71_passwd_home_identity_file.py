"""`IdentityFile ~/.ssh/lab_key` missing under $HOME but present under the passwd home, whose
`~` ssh(1) expands it with: the refusal says where ssh(1) finds the key.

ssh(1) expands a leading `~/` with the passwd database's home (openssh-portable misc.c,
tilde_expand: getpwuid(uid) for `~/`; readconf.c passes IdentityFile through it), not $HOME.
Under `sudo -E` or a CI container that sets HOME, `ssh gpu01` logs in with
/root/.ssh/lab_key while spec-debug said "no such IdentityFile: ~/.ssh/lab_key" and a hint to
check User and IdentityFile, which look right. Real sshd; the passwd home is the test's own.
"""

from __future__ import annotations

import os
import pwd
import shutil
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner import ssh_key_files
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def _passwd_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(home), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)


def _refused(client: ClientSetup, sshd: SshServer) -> AuthenticationError:
    client.hosts["gpu01"] = {"HostName": sshd.address, "Port": sshd.port, "UserKnownHostsFile": str(client.known_hosts),
                             "IdentityFile": "~/.ssh/lab_key", "IdentitiesOnly": "yes"}
    write_ssh_config(client.config, client.hosts)
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("gpu01", client.options())
    return info.value


def _account_with_key(tmp_path: Path, client: ClientSetup) -> Path:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    shutil.copy(client.key.path, account / ".ssh" / "lab_key")
    (account / ".ssh" / "lab_key").chmod(0o600)
    return account


def test_a_tilde_identity_file_found_under_the_passwd_home_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = _account_with_key(tmp_path, client)
    _passwd_home(monkeypatch, account)
    refused = _refused(client, sshd)
    assert "no such IdentityFile: ~/.ssh/lab_key" in refused.message, refused.message
    assert (refused.hint or "").startswith(
        f"~/.ssh/lab_key is not under $HOME ({client.home}), where spec-debug expands ~; ssh(1) expands ~ to {account}, "
        f"this account's home in the passwd database, and finds {account / '.ssh' / 'lab_key'}: name that path in "
        "IdentityFile (or -i); or check User"
    ), refused.hint


def test_no_note_when_the_passwd_home_has_no_such_file_either(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    _passwd_home(monkeypatch, account)
    assert "passwd database" not in (_refused(client, sshd).hint or "")


def test_no_note_when_home_is_the_passwd_home(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _account_with_key(tmp_path, client)
    _passwd_home(monkeypatch, client.home)
    assert "passwd database" not in (_refused(client, sshd).hint or "")
