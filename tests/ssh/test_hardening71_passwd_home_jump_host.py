"""A jump host (ProxyJump) whose alias is only in the passwd home's ~/.ssh/config, when $HOME is
elsewhere: the hint names that file, as it does for the host itself.

ssh(1) reads `~/.ssh/config` from the passwd database's home (openssh-portable ssh.c, main:
`pw = getpwuid(getuid())`, then process_config_files), and resolves a ProxyJump hop through
that same config (the `ssh -J` it starts reads it too). `gpu` (in $HOME's config) jumping
through `bastion`, whose `Host bastion` block is in the passwd home's file only, failed with
"gpu: jump host bastion: cannot resolve host name 'bastion'" and the hint to check the name
alone: the note was given for the host's own name only. Real sshd; the passwd home is the
test's own.
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

_BASTION = "bastion-h71j.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


def _account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hosts: dict[str, dict[str, object]]) -> Path:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    write_ssh_config(account / ".ssh" / "config", hosts)
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    return account


def _unreachable(client: ClientSetup, sshd: SshServer, jump: str, name: str | None = None) -> HostUnreachableError:
    client.alias("gpu", sshd, ProxyJump=jump)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect("gpu", client.options(ssh_config_path=None), name=name)
    return info.value


def test_a_jump_host_only_in_the_passwd_homes_config_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = _account(tmp_path, monkeypatch, {_BASTION: {"HostName": sshd.address, "Port": sshd.port}})
    error = _unreachable(client, sshd, f"root@{_BASTION}", name="lab01")
    assert error.message.startswith(f"lab01 at gpu: jump host {_BASTION}: cannot resolve host name {_BASTION!r} ("), error.message
    theirs = account / ".ssh" / "config"
    assert error.hint == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_BASTION}`; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} (or HOME={account}); "
        f"or {_CHECK}"
    ), error.hint


def test_no_note_when_the_jump_host_is_not_in_the_passwd_homes_config(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _account(tmp_path, monkeypatch, {"elsewhere": {"HostName": sshd.address}})
    assert _unreachable(client, sshd, _BASTION).hint == _CHECK
