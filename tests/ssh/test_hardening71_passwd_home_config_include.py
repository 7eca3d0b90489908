"""An alias whose `Host` block is in a file the passwd home's ~/.ssh/config `Include`s
(`Include config.d/*`, a common layout), when $HOME is elsewhere: the hint names the file
ssh(1) reads, as it does for a block in that file itself.

ssh(1) reads `~/.ssh/config` from the passwd database's home (openssh-portable ssh.c, main:
`pw = getpwuid(getuid())`), and an Include there with a relative path is under that home's
~/.ssh (readconf.c, process_config_line_depth, oInclude: _PATH_SSH_USER_DIR, then
tilde_expand_filename). The hint looked at that one file's own `Host` lines only, and said
just "check the name". Real sshd; the passwd home is the test's own.
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

_ALIAS = "gpubox-h71i.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


def _account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sshd: SshServer, include: str) -> Path:
    account = tmp_path / "account"
    (account / ".ssh" / "config.d").mkdir(parents=True)
    (account / ".ssh" / "config").write_text(f"Include {include}\n\nHost other\n  User root\n")
    write_ssh_config(account / ".ssh" / "config.d" / "gpu", {_ALIAS: {"HostName": sshd.address, "Port": sshd.port}})
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    return account


def _hint(client: ClientSetup) -> str | None:
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(ssh_config_path=None))
    return info.value.hint


@pytest.mark.parametrize("include", ["config.d/*", "~/.ssh/config.d/gpu"])
def test_a_block_in_an_included_file_of_the_passwd_homes_config_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, include: str
) -> None:
    account = _account(tmp_path, monkeypatch, sshd, include)
    theirs = account / ".ssh" / "config"
    assert _hint(client) == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_ALIAS}`; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} (or HOME={account}); "
        f"or {_CHECK}"
    )


def test_no_note_when_homes_config_includes_a_block_for_it(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$HOME's config has it through its own Include (relative to $HOME/.ssh): the note would be wrong."""
    _account(tmp_path, monkeypatch, sshd, "config.d/*")
    (client.home / ".ssh" / "mine").mkdir()
    write_ssh_config(client.home / ".ssh" / "mine" / "gpu", {_ALIAS: {"User": "root"}})
    client.config.write_text("Include mine/*\n" + client.config.read_text())
    assert _hint(client) == _CHECK
