"""The passwd-home note reads a `Host` line's patterns as ssh(1) does: quotes removed, and a
`!` pattern on the line vetoing the host.

ssh(1) splits a Host line like any other (openssh-portable readconf.c: argv_split, which drops
quotes), and a negated pattern that matches makes the whole line not apply (readconf.c, oHost:
"negated match"). Recorded with OpenSSH_9.2p1 `ssh -G`: `Host "gpubox-h72q.invalid"` applies to
that name; `Host gpubox-* !gpubox-h72q.invalid` does not. The note read the words as text: a
quoted alias (as config generators write it) got no note, and a vetoed one got a note naming a
file whose block ssh(1) does not apply to it. Real sshd; the passwd home is the test's own.
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

_ALIAS = "gpubox-h72q.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


def _hint(client: ClientSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host_line: str, sshd: SshServer) -> tuple[str | None, Path]:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    (account / ".ssh" / "config").write_text(f"{host_line}\n  HostName {sshd.address}\n  Port {sshd.port}\n")
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(ssh_config_path=None))
    assert info.value.message.startswith(f"{_ALIAS}: cannot resolve host name {_ALIAS!r} ("), info.value.message
    return info.value.hint, account


@pytest.mark.parametrize("host_line", [
    f'Host "{_ALIAS}"',
    f'Host other "{_ALIAS}" !other2  # the lab',
    f"Host={_ALIAS}",
])
def test_a_quoted_host_pattern_is_read_as_ssh_reads_it(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host_line: str
) -> None:
    hint, account = _hint(client, tmp_path, monkeypatch, host_line, sshd)
    theirs = account / ".ssh" / "config"
    assert hint == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_ALIAS}`; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} "
        f"(or HOME={account}); or {_CHECK}"
    )


@pytest.mark.parametrize("host_line", [
    f"Host gpubox-* !{_ALIAS}",
    f'Host "gpubox-*" "!{_ALIAS}"',
    "Host gpubox-* !gpubox-h72q.*",
])
def test_a_host_line_that_vetoes_the_alias_gets_no_note(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host_line: str
) -> None:
    hint, _ = _hint(client, tmp_path, monkeypatch, host_line, sshd)
    assert hint == _CHECK
