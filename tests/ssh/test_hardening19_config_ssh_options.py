"""`-o 'ProxyCommand ssh -o StrictHostKeyChecking=no -W %h:%p bastion'` from an inventory.

Ansible inventories hand ssh options over in ansible_ssh_common_args, and a bastion's
ProxyCommand often carries options of its own. ssh(1) ends an option's keyword at the first
blank or `=` (openssh-portable: misc.c, strdelim_internal); spec-debug replaced the first `=`
of the whole option with a blank, so the inner ssh was run as `ssh -o StrictHostKeyChecking
no -W ...`, `no` became the host it logged in to, and every host behind the bastion was
unreachable.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")

# The bastion is 127.0.0.1 port 1: the inner ssh is refused at once, nothing else is contacted.
COMMON_ARGS = "-o 'ProxyCommand ssh -o StrictHostKeyChecking=no -o BatchMode=yes -p 1 -W %h:%p 127.0.0.1' -o User=deploy"


@pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with (CI gets it with openssh-server)")
def test_a_proxy_command_option_with_options_of_its_own_runs_as_ssh_runs_it(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  Port 2222\n")
    log = subprocess.run([SSH, "-v", "-F", str(config), *shlex.split(COMMON_ARGS), "gpu01", "true"],
                         capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL, timeout=30).stderr
    executed = re.search(r"Executing proxy command: exec (.+)$", log, re.M)
    assert executed is not None, log
    target = resolve_target("gpu01", load_ssh_config(config), ssh_options=parse_ssh_args(COMMON_ARGS))
    assert target.proxy_command == executed.group(1) == (
        "ssh -o StrictHostKeyChecking=no -o BatchMode=yes -p 1 -W 127.0.0.1:2222 127.0.0.1")
    assert target.user == "deploy"


@pytest.mark.parametrize(("option", "keyword", "value"), [
    ("-o 'ProxyCommand ssh -o StrictHostKeyChecking=no -W %h:%p bastion'", "proxycommand",
     "ssh -o StrictHostKeyChecking=no -W %h:%p bastion"),
    ("-o ProxyCommand='ssh -o ControlPath=none -W %h:%p bastion'", "proxycommand", "ssh -o ControlPath=none -W %h:%p bastion"),
    ("-o 'Port = 2200'", "port", "2200"),
    ("-o IdentityFile=~/.ssh/a=b", "identityfile", "~/.ssh/a=b"),
])
def test_an_option_is_split_at_its_keyword_only(option: str, keyword: str, value: str) -> None:
    assert parse_ssh_args(option) == {keyword: value}


def test_a_misspelt_option_is_refused_as_ssh_refuses_it() -> None:
    # Dropped before: the hosts behind the bastion were tried directly, and timed out.
    args = "-o ProxyComand='ssh -W %h:%p bastion'"
    if SSH is not None:
        done = subprocess.run([SSH, "-G", *shlex.split(args), "gpu01"], capture_output=True, text=True, check=False,
                              stdin=subprocess.DEVNULL, timeout=30)
        assert done.returncode != 0 and "Bad configuration option: proxycomand" in done.stderr
    with pytest.raises(UsageError) as refused:
        parse_ssh_args(args, source="ansible_ssh_common_args of gpu01")
    assert refused.value.message.startswith("ansible_ssh_common_args of gpu01: -o ProxyComand=ssh -W %h:%p bastion: "
                                            "Bad configuration option: ProxyComand (did you mean proxycommand?)")


def test_ignore_unknown_lets_a_vendor_option_through() -> None:
    assert parse_ssh_args("-o IgnoreUnknown=UseMyKeychain -o UseMyKeychain=yes -o UseKeychain=yes -p 2200") == {
        "ignoreunknown": "UseMyKeychain", "usemykeychain": "yes", "usekeychain": "yes", "port": "2200"}
