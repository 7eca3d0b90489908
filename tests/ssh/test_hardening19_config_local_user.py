"""The local account is the password database's, not $USER's, as in ssh(1).

ssh(1) takes the local user from getpwuid(getuid()) (openssh-portable: ssh.c, main): the
default User, `%u` and `%r`, and what `Match localuser` tests. spec-debug took $USER/$LOGNAME
(getpass.getuser), which `su` (to root, without `-`) and containers started with `-u UID` leave
naming another account: we logged in as that account where `ssh gpu01` logs in as the real
one, and Match localuser blocks applied otherwise.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")
ME = pwd.getpwuid(os.getuid()).pw_name
OTHER = "alice" if ME != "alice" else "bob"


@pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with (CI gets it with openssh-server)")
def test_user_left_in_the_environment_by_su_is_not_the_account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    config.write_text(f"Match localuser {ME}\n  Port 2201\nHost gpu01\n  IdentityFile ~/.ssh/id_%u_%r\n")
    monkeypatch.setenv("USER", OTHER)
    monkeypatch.setenv("LOGNAME", OTHER)
    env = {**os.environ, "USER": OTHER, "LOGNAME": OTHER}
    resolved = subprocess.run([SSH, "-G", "-F", str(config), "gpu01"], capture_output=True, text=True, check=True,
                              stdin=subprocess.DEVNULL, env=env, timeout=30).stdout
    log = subprocess.run([SSH, "-v", "-F", str(config), "-o", "ProxyCommand=false", "gpu01", "true"], capture_output=True,
                         text=True, check=False, stdin=subprocess.DEVNULL, env=env, timeout=30).stderr
    keys = re.findall(r"identity file (\S+) type", log)
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.user, str(target.port)) == (re.search(r"^user (\S+)", resolved, re.M).group(1),
                                               re.search(r"^port (\S+)", resolved, re.M).group(1)) == (ME, "2201")
    assert os.path.expanduser(target.identity_files[0]) == keys[0] == os.path.expanduser(f"~/.ssh/id_{ME}_{ME}")
