"""A `Host` line of the passwd home's ~/.ssh/config in another case than the alias is not the
alias's block: the note does not name that file. `Match originalhost` in another case is.

ssh(1) tests Host patterns against the name as typed (openssh-portable readconf.c, oHost:
match_pattern), but Match host/originalhost in lower case (match.c, match_hostname). Recorded
with OpenSSH_9.2p1 `ssh -G -F FILE gpubox-h72`: `Host GPUBOX-H72` leaves the name as given,
`Match originalhost GPUBOX-H72` and `Match host GPUBOX-H72` apply. The note lowered both
sides for Host lines and told the user that file has the host, and to run with -F it, where
ssh(1) fails the same way. Real sshd; the passwd home is the test's own.
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

_ALIAS = "gpubox-h72k.invalid"  # .invalid never resolves (RFC 6761)
_CHECK = "check the name, or its HostName in your ssh config"


@pytest.mark.parametrize("block, noted", [
    (f"Host {_ALIAS.upper()}", False),
    ("Host GPUBOX-*", False),
    (f"Host {_ALIAS}", True),
    (f"Match originalhost {_ALIAS.upper()}", True),
    ("Match host GPUBOX-*", True),
])
def test_host_lines_are_case_sensitive_match_criteria_are_not(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: str, noted: bool
) -> None:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    (account / ".ssh" / "config").write_text(f"{block}\n  HostName {sshd.address}\n  Port {sshd.port}\n")
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(account), real[6]))
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: moved)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_ALIAS, client.options(ssh_config_path=None))
    theirs = account / ".ssh" / "config"
    note = (f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_ALIAS}`; ssh(1) reads "
            f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} "
            f"(or HOME={account}); or {_CHECK}")
    assert info.value.hint == (note if noted else _CHECK)
