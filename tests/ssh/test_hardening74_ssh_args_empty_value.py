"""`-o User=` (or `-o Port`, `-o ProxyJump=`) with no value in an inventory's ssh arguments:
ssh(1) refuses every keyword without a value before it connects ("command-line line 0: no
argument after keyword \"user\""; openssh-portable: readconf.c, process_config_line_depth),
recorded with OpenSSH_9.2p1 `ssh -G`. Ansible's host is unreachable.

Before: the option was dropped with no word, and the run logged in as the local user (or on
port 22, or straight past the bastion the line meant to name), where ssh(1) stops. Now the
inventory is refused, naming file, line, host, variable and option. Real sshd for the run.
"""

from __future__ import annotations

import getpass
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.inventory import load_inventory
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: t\ndescription: t\nsteps:\n  - id: a\n    title: a\n    why: a\n    run: id -un\n"


@pytest.mark.parametrize("option, keyword", [
    ("-o User=", "user"), ("-o Port", "port"), ("-o ProxyJump=", "proxyjump"), ("-o 'ProxyCommand '", "proxycommand"),
])
def test_an_option_without_a_value_stops_the_inventory(tmp_path: Path, option: str, keyword: str) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_ssh_extra_args=\"{option}\"\n")
    with pytest.raises(UsageError) as refused:
        load_inventory(tmp_path / "hosts.ini").spec("gpu01")  # was read, the option dropped
    shown = option.replace("'", "")
    assert refused.value.message == (f"{tmp_path / 'hosts.ini'}:2: host gpu01: ansible_ssh_extra_args: -o {shown.removeprefix('-o ')}: "
                                     f"no argument after keyword {keyword!r}")
    if shutil.which("ssh"):
        done = subprocess.run(["ssh", "-F", "/dev/null", "-G", "-o", shown.removeprefix("-o "), "gpu01"],
                              capture_output=True, text=True)
        assert done.returncode != 0 and f'no argument after keyword "{keyword}"' in done.stderr


def test_a_run_with_an_empty_user_stops_where_it_logged_in_as_the_local_user(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    connect = (f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
               f"ansible_ssh_common_args='-o UserKnownHostsFile={client.known_hosts}'")
    (tmp_path / "t.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 {connect} ansible_ssh_extra_args='-o User='\n")
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 2, done.stdout + done.stderr  # was 0: logged in as the local user
    assert "ansible_ssh_extra_args: -o User=: no argument after keyword 'user'" in done.stderr
    assert not out.exists() or not any(p.is_dir() for p in out.iterdir())

    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 {connect} ansible_ssh_extra_args='-o User={getpass.getuser()}'\n")
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    assert [s["stdout"] for s in json.loads((run_dir / "run.json").read_text())["steps"]] == [getpass.getuser() + "\n"]
