"""`-J` after an `-o ProxyCommand=` on the ssh command line Ansible makes of an inventory's ssh
arguments: ssh(1) stops, "Cannot specify -J with ProxyCommand" (openssh-portable: ssh.c, main,
case 'J'; recorded with OpenSSH_9.2p1, also for `-o ProxyCommand=none -J b`), so Ansible cannot
reach the host.

Before: spec-debug took the ProxyCommand and dropped the -J with no word: a host whose
`ansible_ssh_extra_args: -J jump2` was meant to take it around a group's bastion went through
the bastion anyway. Now the inventory is refused as ssh(1) refuses the line, naming both; a -J
before the ProxyCommand is ssh(1)'s way to the host (the -o after it is not read) and is kept.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.inventory import load_inventory
from spec_debug.runner.ssh_args import parse_ssh_args

GROUP = "[gpu:vars]\nansible_ssh_common_args='-o ProxyCommand=\"ssh -W %h:%p -q bastion\"'\n"


@pytest.mark.parametrize("args", ["-o 'ProxyCommand=nc %h %p' -J jump2", "-o ProxyCommand=none -J jump2"])
def test_a_jump_host_after_a_proxy_command_is_refused(args: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_ssh_args(args)
    proxy = "nc %h %p" if "nc" in args else "none"
    assert refused.value.message == f"ssh arguments: -J jump2: Cannot specify -J with ProxyCommand (given before it: {proxy!r})"
    assert refused.value.hint == "ssh(1) refuses it too; keep one way to the host: drop the -o ProxyCommand or the -J"
    if shutil.which("ssh"):
        import shlex
        said = subprocess.run(["ssh", "-F", "/dev/null", "-G", *shlex.split(args), "gpu01"], capture_output=True, text=True)
        assert said.returncode != 0 and "Cannot specify -J with ProxyCommand" in said.stderr


def test_a_hosts_jump_under_a_groups_proxy_command_is_refused(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=10.0.0.5 ansible_ssh_extra_args='-J jump2'\n{GROUP}")
    with pytest.raises(UsageError) as refused:
        load_inventory(tmp_path / "hosts.ini").spec("gpu01")  # was: through the bastion, -J dropped
    assert "ansible_ssh_extra_args: -J jump2: Cannot specify -J with ProxyCommand (given before it: " \
           "'ssh -W %h:%p -q bastion')" in refused.value.message


def test_a_jump_host_before_a_proxy_command_is_the_way_in() -> None:
    assert parse_ssh_args("-J jump2 -o 'ProxyCommand=nc %h %p'") == {"proxyjump": "jump2", "proxycommand": "nc %h %p"}
