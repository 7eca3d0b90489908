"""`-b`, `-B`, `-c`, `-m` and `-S` in an inventory's ssh arguments: ssh(1) reads them as
BindAddress, BindInterface, Ciphers, MACs and ControlPath, each over any value before it
(openssh-portable: ssh.c, main; recorded with OpenSSH_9.2p1 `ssh -G -o BindAddress=127.0.0.3 -b
127.0.0.2` -> bindaddress 127.0.0.2).

Before: they were dropped with no word. A multi-homed login node whose GPU hosts' firewalls let
only one of its addresses through, written `ansible_ssh_extra_args: -b 10.1.0.5`, connected from
another address and timed out, where Ansible and `ssh -b` got in. Now they are read as ssh(1)
reads them: the step below sees the connection come from the address `-b` names. Real sshd.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh_args import parse_ssh_args
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = ("name: from\ndescription: t\nsteps:\n  - id: from\n    title: from\n    why: from\n"
            "    run: 'echo ${SSH_CLIENT%% *}'\n")


@pytest.mark.parametrize("args, keyword, expected", [
    ("-b 127.0.0.2", "bindaddress", "127.0.0.2"),
    ("-o BindAddress=127.0.0.3 -b 127.0.0.2", "bindaddress", "127.0.0.2"),
    ("-b 127.0.0.2 -o BindAddress=127.0.0.3", "bindaddress", "127.0.0.2"),
    ("-b 127.0.0.2 -b 127.0.0.3", "bindaddress", "127.0.0.3"),
    ("-B lo -o BindInterface=eth0", "bindinterface", "lo"),
    ("-o Ciphers=aes256-ctr -c aes128-ctr", "ciphers", "aes128-ctr"),
    ("-c aes128-ctr -o Ciphers=aes256-ctr", "ciphers", "aes128-ctr"),
    ("-m hmac-sha2-256 -o MACs=hmac-sha2-512", "macs", "hmac-sha2-256"),
    ("-o ControlPath=/tmp/b -S /tmp/a", "controlpath", "/tmp/a"),
])
def test_value_flags_read_as_ssh_reads_them(args: str, keyword: str, expected: str) -> None:
    assert parse_ssh_args(args).get(keyword) == expected  # was None: the flag was dropped
    if shutil.which("ssh"):
        printed = subprocess.run(["ssh", "-F", "/dev/null", "-G", *args.split(), "gpu01"], capture_output=True,
                                 text=True, check=True).stdout
        assert f"{keyword} {expected}" in printed.splitlines()


def test_a_hosts_dash_b_is_the_address_the_connection_comes_from(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    connect = (f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
               f"ansible_ssh_common_args='-o UserKnownHostsFile={client.known_hosts}'")
    (tmp_path / "hosts.ini").write_text(f"[gpu]\nplain {connect}\nbound {connect} ansible_ssh_extra_args='-b 127.0.0.2'\n")
    (tmp_path / "from.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "from.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    said = {step["host"]: step["stdout"].strip() for step in json.loads((run_dir / "run.json").read_text())["steps"]}
    assert said == {"plain": "127.0.0.1", "bound": "127.0.0.2"}  # bound was 127.0.0.1: -b was dropped
