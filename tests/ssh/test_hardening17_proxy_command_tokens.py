"""A ProxyCommand's `%` tokens as ssh(1) expands them: %h, %k, %n, %p, %r and %% only
(openssh-portable: sshconnect.c, expand_proxy_command).

A bastion set up by hand, `ProxyCommand ssh -W %h:%p -o HostKeyAlias=%k gw`, sent `%k` to the
shell as written, where ssh(1) puts the HostKeyAlias in. And a token ssh(1) does not expand
there, `ProxyCommand nc %C`, ssh(1) refuses before it connects ("percent_expand: failed"); we
ran the command with the `%C` left in, and reported whatever the proxy made of it.
"""

from __future__ import annotations

import getpass
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs ssh(1) to compare with")


def _ssh_verbose(config: Path, alias: str) -> str:
    """What `ssh -v` says up to running the ProxyCommand (which here writes nothing and fails)."""
    return subprocess.run(["ssh", "-F", str(config), "-v", "-o", "BatchMode=yes", "-o", "ConnectTimeout=3", alias, "true"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30).stderr


def test_percent_k_is_the_host_key_alias_as_ssh_runs_it(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  HostKeyAlias gpu01-key\n"
                      "  ProxyCommand false %k %h %n %p %r %%k\n")
    [ran] = [line.split("Executing proxy command: exec ", 1)[1]
             for line in _ssh_verbose(config, "gpu01").splitlines() if "Executing proxy command" in line]
    assert ran == f"false gpu01-key 127.0.0.1 gpu01 22 {getpass.getuser()} %k"
    assert resolve_target("gpu01", load_ssh_config(config)).proxy_command == ran


@pytest.mark.parametrize("token", ["C", "u", "d", "L", "i"])
def test_a_token_ssh_refuses_in_proxy_command_is_refused(tmp_path: Path, token: str) -> None:
    config = tmp_path / "config"
    config.write_text(f"Host gpu01\n  HostName 127.0.0.1\n  ProxyCommand false %{token}\n")
    assert "percent_expand: failed" in _ssh_verbose(config, "gpu01")
    with pytest.raises(UsageError, match=f"%{token} is not a token ssh\\(1\\) expands there"):
        resolve_target("gpu01", load_ssh_config(config))


def test_a_proxy_command_a_proxy_jump_overrides_is_not_refused(tmp_path: Path) -> None:
    # ssh(1) skips a ProxyCommand met after a ProxyJump (readconf.c, oProxyCommand), so never
    # expands it: `ssh -G` shows the jump alone.
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  ProxyJump gw\n  ProxyCommand nc %C\n")
    shown = subprocess.run(["ssh", "-F", str(config), "-G", "gpu01"], capture_output=True, text=True, check=True,
                           stdin=subprocess.DEVNULL).stdout
    assert "proxyjump gw" in shown.splitlines() and "proxycommand" not in shown
    target = resolve_target("gpu01", load_ssh_config(config))
    assert target.proxy_command is None and target.proxy_jump
