"""A jump host (ProxyJump) whose alias is only in the passwd home's ~/.ssh/config, when $HOME is
elsewhere: the hint names that file, as it does for the host itself.

ssh(1) reads `~/.ssh/config` from the passwd database's home (openssh-portable ssh.c, main:
`pw = getpwuid(getuid())`, then process_config_files), and resolves a ProxyJump hop through
that same config (the `ssh -J` it starts reads it too). `gpu` (in $HOME's config) jumping
through `bastion`, whose `Host bastion` block is in the passwd home's file only, failed with
"gpu: jump host bastion: cannot resolve host name 'bastion'" and the hint to check the name
alone: the note was given for the host's own name only. A name the jump host before it looks
up itself (`ProxyJump target,bastion`, or `-J target` to a host named only in that file) failed
there ("jump host target could not open a connection to bastion:22") with no note either.
Real sshd; the passwd home is the test's own.
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


def _note(client: ClientSetup, account: Path, alias: str) -> str:
    theirs = account / ".ssh" / "config"
    return (f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {alias}`; ssh(1) reads "
            f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} (or HOME={account})")


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


def test_a_later_jump_host_only_there_is_named_when_the_first_cannot_reach_it(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ProxyJump target,bastion`: the first hop (in $HOME's config) looks `bastion` up itself."""
    account = _account(tmp_path, monkeypatch, {_BASTION: {"HostName": sshd.address, "Port": sshd.port}})
    error = _unreachable(client, sshd, f"target,{_BASTION}")
    assert error.message.startswith(f"gpu: jump host {_BASTION}: jump host target could not open a connection to {_BASTION}:22 ("), error.message
    assert error.hint == (
        f"{_note(client, account, _BASTION)}; or check {_BASTION}'s HostName and Port as target sees them, and that sshd runs there"
    ), error.hint


def test_the_host_only_there_is_named_when_its_jump_host_cannot_reach_it(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A jump host given outside that file (an inventory's `-J target`) for a host named only in it."""
    account = _account(tmp_path, monkeypatch, {_BASTION: {"HostName": sshd.address, "Port": sshd.port}})
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_BASTION, client.options(ssh_config_path=None), ssh_options={"proxyjump": "target"})
    assert info.value.message.startswith(f"{_BASTION}: jump host target could not open a connection to {_BASTION}:22 ("), info.value.message
    assert info.value.hint == (
        f"{_note(client, account, _BASTION)}; or check {_BASTION}'s HostName and Port as target sees them, and that sshd runs there"
    ), info.value.hint


def test_no_note_when_the_jump_host_is_not_in_the_passwd_homes_config(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _account(tmp_path, monkeypatch, {"elsewhere": {"HostName": sshd.address}})
    assert _unreachable(client, sshd, _BASTION).hint == _CHECK
