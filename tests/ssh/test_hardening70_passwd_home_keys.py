"""No key found under $HOME, when $HOME is not the account's home: say where ssh(1) looks.

ssh(1) takes `~` from the passwd database, not $HOME (openssh-portable ssh.c, main: `pw =
getpwuid(getuid())`, the user's files under pw->pw_dir). Under `sudo -E`, a CI container job
that sets HOME (GitHub Actions: /github/home) or a pod's env, `ssh gpu01` finds
/root/.ssh/id_ed25519 while spec-debug said only "no keys found (..., no identity files)".
Real sshd; HOME is the test's private home, the passwd home is root's (or is made the same).
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner import ssh_key_files
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def _no_identity_file_alias(client: ClientSetup, sshd: SshServer) -> None:
    """`gpu01` with no IdentityFile: ssh(1) and spec-debug offer the default ~/.ssh/id_* keys."""
    client.hosts["gpu01"] = {"HostName": sshd.address, "Port": sshd.port, "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)


def _refused(client: ClientSetup) -> AuthenticationError:
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("gpu01", client.options())
    return info.value


def test_no_default_key_under_home_names_the_passwd_home_ssh_reads(client: ClientSetup, sshd: SshServer) -> None:
    passwd_home = pwd.getpwuid(os.getuid()).pw_dir
    assert os.path.realpath(passwd_home) != os.path.realpath(client.home)
    _no_identity_file_alias(client, sshd)
    refused = _refused(client)
    assert refused.message.endswith("(tried: no keys found (ssh-agent not used, no identity files))"), refused.message
    assert (refused.hint or "").startswith(
        f"no default key ~/.ssh/id_* under $HOME ({client.home}), where spec-debug looks; ssh(1) looks under "
        f"{passwd_home}, this account's home in the passwd database: name the key with IdentityFile (or -i); or check User"
    ), refused.hint


def test_no_note_when_home_is_the_passwd_home(client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch) -> None:
    real = pwd.getpwuid(os.getuid())
    same = pwd.struct_passwd((*real[:5], str(client.home), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: same)
    _no_identity_file_alias(client, sshd)
    refused = _refused(client)
    assert (refused.hint or "").startswith("check User and IdentityFile"), refused.hint


def test_an_identity_file_named_gets_no_note(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """A configured IdentityFile is not looked for under any home: the note is only for ~/.ssh/id_*."""
    client.hosts["gpu01"] = {"HostName": sshd.address, "Port": sshd.port, "UserKnownHostsFile": str(client.known_hosts),
                             "IdentityFile": str(tmp_path / "gone_ed25519")}
    write_ssh_config(client.config, client.hosts)
    refused = _refused(client)
    assert "no such IdentityFile" in refused.message and "passwd database" not in (refused.hint or ""), refused.hint
