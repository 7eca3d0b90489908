"""`--host GPUBOX-H72T.invalid` where the passwd home's ~/.ssh/config (which ssh(1) reads; HOME
is set elsewhere) has `Host GPUBOX-H72T.invalid`: ssh(1) matches that Host line against the name
as typed (readconf.c, oHost: match_pattern) and connects; spec-debug, reading $HOME's config,
looked the name up in lower case (ssh.c, main: lowercase(host)) and failed with
"cannot resolve host name 'gpubox-h72t.invalid'". The passwd-home note compared that quoted
lower-case name with the name as typed, so a name typed with a capital letter got no note.
Real sshd; the passwd home is the test's own."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner import ssh_key_files
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientSetup, SshServer

_TYPED = "GPUBOX-H72T.invalid"  # .invalid never resolves (RFC 6761)


def test_a_name_typed_with_capitals_gets_the_passwd_home_note(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = tmp_path / "account"
    (account / ".ssh").mkdir(parents=True)
    theirs = account / ".ssh" / "config"
    theirs.write_text(f"Host {_TYPED}\n  HostName {sshd.address}\n  Port {sshd.port}\n")
    if shutil.which("ssh"):  # ssh(1) reading that file takes the block for the name as typed
        done = subprocess.run(["ssh", "-F", str(theirs), "-G", _TYPED], capture_output=True, text=True, timeout=30, check=True)
        assert f"hostname {sshd.address}\n" in done.stdout and f"port {sshd.port}\n" in done.stdout, done.stdout
    real = pwd.getpwuid(os.getuid())
    monkeypatch.setattr(ssh_key_files.pwd, "getpwuid", lambda uid: pwd.struct_passwd((*real[:5], str(account), real[6])))
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect(_TYPED, client.options(ssh_config_path=None))
    assert info.value.message.startswith(f"{_TYPED}: cannot resolve host name '{_TYPED.lower()}' ("), info.value.message
    assert info.value.hint == (
        f"spec-debug reads ~/.ssh/config under $HOME ({client.home}), which has no `Host {_TYPED}`; ssh(1) reads "
        f"{theirs}, under this account's home in the passwd database, which has: run with -F {theirs} "
        f"(or HOME={account}); or check the name, or its HostName in your ssh config")
