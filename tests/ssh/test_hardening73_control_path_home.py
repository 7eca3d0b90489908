"""`ControlPath ~/.ssh/cm-%C` where $HOME is not the account's home in the passwd database
(`sudo -E`, a CI job or pod that sets HOME, a site that points HOME at scratch): ssh(1) expands
the `~` with the passwd database's home (openssh-portable: misc.c, tilde_expand: getpwuid;
OpenSSH_9.2p1 `HOME=/tmp/x ssh -G -o ControlPath=~/cm gpu01` prints `controlpath /root/cm`),
so the master connection `ssh gpu` rides sits there.

Before: spec-debug looked for the master under $HOME only, found none, and its failed login at
a second-factor host said nothing of why `ssh gpu` asks for nothing. Now the note names the
master where ssh(1) keeps it. Real sshd (key then password), real ssh(1) master; the passwd
database's home is moved to a short folder as in hardening71's tests.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import start_password_server
from tests.sshd_fixture import ClientSetup

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) to keep a master connection")

PASSWORD = "otp-771204"
PASSWORD_HINT = ("the host takes a password: set ansible_password for it in an inventory (--inventory), export it as "
                 "$SSHPASS (as for sshpass -e), run without --batch to type it, or use an account that logs in with a key alone")


@pytest.fixture
def passwd_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The account's home in the passwd database, moved to a short folder (a socket path must fit
    in 108 bytes); $HOME stays the client fixture's."""
    folder = Path(tempfile.mkdtemp(prefix="pw", dir="/tmp"))
    real = pwd.getpwuid(os.getuid())
    moved = pwd.struct_passwd((*real[:5], str(folder), real[6]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: moved)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _ssh(config: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SSH, "-F", str(config), *args], capture_output=True, text=True, timeout=60,  # type: ignore[list-item]
                          stdin=subprocess.DEVNULL, env=env, check=False)


def test_the_master_where_ssh_expands_the_tilde_is_named(
        client: ClientSetup, tmp_path: Path, passwd_home: Path) -> None:
    assert os.path.expanduser("~") == str(client.home)  # $HOME is not the passwd database's home
    server = start_password_server(tmp_path / "sshd-gpu", PASSWORD, keys=[client.key],
                                   extra_config="AuthenticationMethods publickey,password\n")
    client.trust(server)
    # ssh(1), whose passwd home this is, puts `~/%C` under it: the master is opened there
    where_ssh_puts_it = f"-oControlPath={passwd_home}/%C"
    client.alias("gpu", server, ControlMaster="auto", ControlPath="~/%C", ControlPersist="yes")
    askpass = tmp_path / "askpass"
    askpass.write_text(f"#!/bin/sh\necho {PASSWORD}\n")
    askpass.chmod(0o755)
    try:
        started = _ssh(client.config, where_ssh_puts_it, "-fN", "gpu",
                       env={**os.environ, "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"})
        assert started.returncode == 0, started.stderr + server.log_tail()
        [socket_path] = passwd_home.iterdir()
        with pytest.raises(AuthenticationError) as refused:
            SSHTransport.connect("gpu", client.options())
        assert "and then asks for a password" in refused.value.message
        assert refused.value.hint == (  # was PASSWORD_HINT alone: the master was looked for under $HOME
            f"`ssh gpu` logs in through the master connection ssh(1) keeps open at {socket_path} (ControlMaster and "
            "ControlPath in your ssh config), so it asks for nothing while that connection lasts; spec-debug cannot share "
            f"it and logs in anew; {PASSWORD_HINT}")
        assert not any(client.home.glob("[0-9a-f]" * 8 + "*"))  # nothing under $HOME
    finally:
        _ssh(client.config, where_ssh_puts_it, "-O", "exit", "gpu")
        server.stop()
