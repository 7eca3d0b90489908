"""A short host name that ssh(1) completes through `CanonicalizeHostname yes` and
`CanonicalDomains` in the passwd home's ~/.ssh/config, when $HOME is elsewhere: the hint says
which names ssh(1) looks up and which file makes it.

ssh(1) reads `~/.ssh/config` from the passwd database's home (openssh-portable ssh.c, main:
`pw = getpwuid(getuid())`), and with CanonicalizeHostname yes looks up `gpu01.lab.example` for
`ssh gpu01` (ssh.c, resolve_canonicalize: a name with at most CanonicalizeMaxDots dots, each
domain in turn). A site that names its machines by short name that way got, under `sudo -E` or
a CI container that sets HOME, only "cannot resolve host name 'gpu01'" with "check the name":
the name was right. Recorded with OpenSSH_9.2p1 (`ssh -vv -F FILE gpubox-h72c`): "Could not
resolve hostname gpubox-h72c.lab.invalid." then ".other.invalid.", then the name as given; not
for a name with two dots, nor under a `Host other` block. Real sshd; the passwd home is the
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
from tests.sshd_fixture import ClientSetup, SshServer

_SHORT = "gpubox-h72c"
_CHECK = "check the name, or its HostName in your ssh config"
_CANONICAL = "CanonicalizeHostname yes\nCanonicalDomains lab.invalid other.invalid\n"  # .invalid never resolves


def _account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    (account / ".ssh" / "config").write_text(text)
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    return account


def _hint(client: ClientSetup, name: str = _SHORT) -> str | None:
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(name, client.options(ssh_config_path=None))
    assert info.value.message.startswith(f"{name}: cannot resolve host name {name!r} ("), info.value.message
    return info.value.hint


@pytest.mark.parametrize("config", [
    _CANONICAL,
    f"Host * !*.example\n  {_CANONICAL.replace(chr(10), chr(10) + '  ')}",
    f"Match all\n{_CANONICAL}Host other\n  User root\n",
    f"CanonicalizeHostname true\n{_CANONICAL}",                         # true is yes to ssh(1)
    f"CanonicalizeHostname=always\nCanonicalDomains lab.invalid other.invalid  # the lab\nCanonicalDomains ignored.invalid\n",
])
def test_a_short_name_the_passwd_homes_config_canonicalizes_is_named(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str
) -> None:
    account = _account(tmp_path, monkeypatch, config)
    theirs = account / ".ssh" / "config"
    assert _hint(client) == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which does not canonicalize {_SHORT}; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, whose CanonicalizeHostname and CanonicalDomains "
        f"make it look up {_SHORT}.lab.invalid, {_SHORT}.other.invalid: run with -F {theirs} (or HOME={account}); "
        f"or {_CHECK}"
    )


def test_an_included_file_that_canonicalizes_is_followed(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = _account(tmp_path, monkeypatch, "Include config.d/*\n")
    (account / ".ssh" / "config.d").mkdir()
    (account / ".ssh" / "config.d" / "lab").write_text("CanonicalizeHostname yes\nCanonicalDomains lab.invalid\n")
    assert f"make it look up {_SHORT}.lab.invalid: run with -F {account / '.ssh' / 'config'}" in (_hint(client) or "")


@pytest.mark.parametrize("config, name", [
    (_CANONICAL, "a.b.h72c"),                                          # more dots than CanonicalizeMaxDots (1)
    (f"Host other\n  {_CANONICAL.replace(chr(10), chr(10) + '  ')}", _SHORT),  # a block for another host
    (f"CanonicalizeHostname no\n{_CANONICAL}", _SHORT),                # the first value wins
    ("CanonicalizeHostname yes\n", _SHORT),                            # no domains to try
    (f"Match user nobody-h72\n{_CANONICAL}", _SHORT),                  # a block not known to apply
    (f"Host other\n  Include lab\n", _SHORT),                          # included under a block for another host
])
def test_no_note_where_ssh_would_not_canonicalize_the_name(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str, name: str
) -> None:
    account = _account(tmp_path, monkeypatch, config)
    (account / ".ssh" / "lab").write_text(_CANONICAL)
    assert _hint(client, name) == _CHECK


def test_no_note_where_homes_config_canonicalizes_the_name_too(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """spec-debug tried the same domains (and fell back to the name as given, as ssh(1) does)."""
    client.config.write_text(_CANONICAL + client.config.read_text())
    _account(tmp_path, monkeypatch, _CANONICAL)
    assert _hint(client) == _CHECK


@pytest.mark.parametrize("mode, noted", [("yes", False), ("true", False), ("always", True)])
def test_a_host_behind_a_jump_host_is_canonicalized_only_under_always(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, noted: bool
) -> None:
    """ssh.c, main: `yes` canonicalizes only a host it connects to directly (no ProxyJump nor
    ProxyCommand); the jump host here is asked for the name as given."""
    client.config.write_text(client.config.read_text() + "\nHost * !target\n  ProxyJump target\n")
    account = _account(tmp_path, monkeypatch, f"CanonicalizeHostname {mode}\nCanonicalDomains lab.invalid\n")
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_SHORT, client.options(ssh_config_path=None))
    assert info.value.message.startswith(f"{_SHORT}: jump host target could not open a connection to {_SHORT}:22 ("), info.value.message
    note = (f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which does not canonicalize {_SHORT}; ssh(1) reads "
            f"{account / '.ssh' / 'config'}, under this account's home in the passwd database, whose CanonicalizeHostname and "
            f"CanonicalDomains make it look up {_SHORT}.lab.invalid: run with -F {account / '.ssh' / 'config'} (or HOME={account}); or ")
    assert (info.value.hint or "").startswith(note) is noted, info.value.hint
