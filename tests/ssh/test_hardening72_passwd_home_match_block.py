"""An alias whose settings are in a `Match originalhost` / `Match host` block of the passwd
home's ~/.ssh/config, when $HOME is elsewhere: the hint names the file ssh(1) reads, as it does
for a `Host` block.

ssh(1) reads `~/.ssh/config` from the passwd database's home (openssh-portable ssh.c, main:
`pw = getpwuid(getuid())`), and applies a `Match originalhost gpubox` block to `ssh gpubox`
as it applies `Host gpubox` (readconf.c, match_cfg_line: `originalhost` and `host` take a
pattern list, match_pattern_list, commas and `!` negations included). Configs written with
Match for every host (`Match originalhost gpu* user ml`, home-manager's `match` blocks) got only
"check the name, or its HostName in your ssh config": the hint read `Host` lines only. Real
sshd; the passwd home is the test's own.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from spec_debug.runner import ssh_key_files
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientSetup, SshServer

_ALIAS = "gpubox-h72m.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


def _account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    (account / ".ssh" / "config").write_text(text)
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    return account


def _hint(client: ClientSetup) -> str | None:
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(ssh_config_path=None))
    assert info.value.message.startswith(f"{_ALIAS}: cannot resolve host name {_ALIAS!r} ("), info.value.message
    return info.value.hint


@pytest.mark.parametrize("match_line", [
    f"Match originalhost {_ALIAS}",
    f"Match host {_ALIAS}",
    "Match originalhost gpubox-h72m.*",
    f"match OriginalHost=other,{_ALIAS} user root",   # criteria in any case, `=`, a pattern list
    f'Match originalhost "{_ALIAS}" exec "false"',       # read as text: no command runs for a hint
])
def test_an_alias_in_a_match_block_of_the_passwd_homes_config_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, match_line: str
) -> None:
    account = _account(tmp_path, monkeypatch, f"{match_line}\n  HostName {sshd.address}\n  Port {sshd.port}\n")
    theirs = account / ".ssh" / "config"
    assert _hint(client) == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_ALIAS}`; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} "
        f"(or HOME={account}); or {_CHECK}"
    )


@pytest.mark.parametrize("match_line", [
    f"Match originalhost !{_ALIAS},gpubox-*",  # negated: ssh(1) skips the block for it
    "Match originalhost *",                    # every host: names none
    f"Match user {_ALIAS}",                    # another criterion's argument
    "Match localuser root host other",
    f"Match exec {_ALIAS}",
])
def test_a_match_block_that_does_not_name_the_alias_gets_no_note(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, match_line: str
) -> None:
    _account(tmp_path, monkeypatch, f"{match_line}\n  HostName {sshd.address}\n  Port {sshd.port}\n")
    assert _hint(client) == _CHECK


def test_a_match_block_for_the_alias_in_homes_config_keeps_the_hint_as_it_was(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$HOME's config has the block too (without a HostName): the files agree on the name."""
    client.config.write_text(client.config.read_text() + f"\nMatch originalhost {_ALIAS}\n  User root\n")
    _account(tmp_path, monkeypatch, f"Match originalhost {_ALIAS}\n  HostName {sshd.address}\n")
    assert _hint(client) == _CHECK
