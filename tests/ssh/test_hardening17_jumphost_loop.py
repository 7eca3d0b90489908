"""A host whose last ProxyJump hop is the host itself, as ssh(1) compares them: refused as ssh(1)
refuses it ("jumphost loop via b.corp": openssh-portable: ssh.c, main).

`Host b  HostName b.corp  ProxyJump b.corp` (a ProxyJump copied into the block of the host it
jumps through): the hop `b.corp` matches no `Host b` block, so it has no ProxyJump of its own,
and we logged in to b.corp to reach b.corp where `ssh b` refuses the config outright.
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

ME = getpass.getuser()

# (block lines, does ssh(1) refuse it): the hop's unset port is 22 and its unset user the
# host's; the name is compared with the HostName as written, in lower case.
CASES = {
    "jump through itself": ("HostName b.corp\n  ProxyJump b.corp", True),
    "HostName in capitals": ("HostName B.corp\n  ProxyJump b.corp", True),
    "alias without HostName": ("ProxyJump b", True),
    "same user and port spelt out": (f"HostName b.corp\n  User {ME}\n  ProxyJump {ME}@b.corp:22", True),
    "last of several hops": ("HostName b.corp\n  ProxyJump gw,b.corp", True),
    "another user": ("HostName b.corp\n  ProxyJump other@b.corp", False),
    "another port": ("HostName b.corp\n  Port 2222\n  ProxyJump b.corp", False),
    "hop in capitals": ("HostName b.corp\n  ProxyJump B.corp", False),
    "first of several hops": ("HostName b.corp\n  ProxyJump b.corp,gw", False),
    "ProxyCommand met first": ("HostName b.corp\n  ProxyCommand nc %h %p\n  ProxyJump b.corp", False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_jump_through_the_host_itself_is_refused_as_ssh_refuses_it(tmp_path: Path, name: str) -> None:
    block, refused = CASES[name]
    config = tmp_path / "config"
    config.write_text(f"Host b\n  {block}\n")
    shown = subprocess.run(["ssh", "-F", str(config), "-G", "b"], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=30)
    assert ("jumphost loop via" in shown.stderr) == refused, shown.stderr
    if not refused:
        resolve_target("b", load_ssh_config(config))
        return
    hop = shown.stderr.split("jumphost loop via ", 1)[1].split()[0]
    with pytest.raises(UsageError, match=f"b: ProxyJump loop in ssh config: jumphost loop via {hop} "):
        resolve_target("b", load_ssh_config(config))
