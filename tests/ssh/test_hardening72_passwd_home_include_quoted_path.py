"""An `Include` of the passwd home's ~/.ssh/config whose path has a space, quoted or escaped
(`Include "~/Library/Application Support/lab/*"`): the note follows it as ssh(1) does.

ssh(1) splits an Include line with argv_split (openssh-portable readconf.c, oInclude): quotes
drop and `\\ ` keeps a space, so the quoted path is one file pattern. Recorded with
OpenSSH_9.2p1 `ssh -G`: `Include "/tmp/.../my confs/*"` and `Include /tmp/.../my\\ confs/lab`
both apply that file's `Host` block. The note split the line at blanks and looked for
`"~/Library/Application` and `Support/lab/*"`: no note. Real sshd; the passwd home is the
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

_ALIAS = "gpubox-h72p.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


@pytest.mark.parametrize("include", [
    '"~/Library/Application Support/lab/*"',
    '"Library/Application Support/lab/gpu"  # relative: under .ssh of that home',
    "~/Library/Application\\ Support/lab/gpu",
])
def test_an_included_path_with_a_space_is_followed(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, include: str
) -> None:
    account = tmp_path / "account"
    folder = (account / ".ssh" / "Library" / "Application Support" / "lab") if not include.lstrip('"').startswith("~") else (
        account / "Library" / "Application Support" / "lab")
    folder.mkdir(parents=True)
    (account / ".ssh").mkdir(exist_ok=True)
    (account / ".ssh" / "config").write_text(f"Include {include}\n")
    write_ssh_config(folder / "gpu", {_ALIAS: {"HostName": sshd.address, "Port": sshd.port}})
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(ssh_config_path=None))
    theirs = account / ".ssh" / "config"
    assert info.value.hint == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_ALIAS}`; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} "
        f"(or HOME={account}); or {_CHECK}"
    )
