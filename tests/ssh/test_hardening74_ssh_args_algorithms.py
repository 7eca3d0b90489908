"""`-c CIPHERS`, `-m MACS`, `-o Ciphers=` and `-o MACs=` in an inventory's ssh arguments with a
name ssh(1) does not know: ssh(1) stops before it connects ("Unknown cipher type 'aes128-gcm'",
"Unknown mac type ...", "command-line line 0: Bad SSH2 cipher spec ..."; openssh-portable: ssh.c,
main, case 'c' and 'm'; readconf.c, oCiphers and oMacs), recorded with OpenSSH_9.2p1 `ssh -G`.

Before: the inventory was read, and the run went on to each host, which then failed at connect
time as "gpuNN: ssh config: Ciphers 'aes128-gcm' leaves no algorithm spec-debug can use (...)",
naming neither the inventory, its line nor the variable, once per host; `-c
aes128-ctr,aes128-gcm` dropped the unknown name and connected where ssh(1) and Ansible do not.
Now reading the inventory stops with ssh(1)'s words, the file, line, host and variable, before
any host is tried. Lists ssh(1) takes (`+`/`^` before -c, `-` before a -o list) still load, and a
run with a good `-c` still reaches the real sshd.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.inventory import load_inventory
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: t\ndescription: t\nsteps:\n  - id: a\n    title: a\n    why: a\n    run: echo hi\n"


def _ssh_refuses(args: list[str]) -> bool | None:
    if not shutil.which("ssh"):
        return None
    return subprocess.run(["ssh", "-F", "/dev/null", "-G", *args, "gpu01"], capture_output=True).returncode != 0


@pytest.mark.parametrize("variable, ssh_args, said", [
    ("-c aes128-gcm", ["-c", "aes128-gcm"], "-c aes128-gcm: Unknown cipher type 'aes128-gcm'"),
    ("-c aes128-ctr,aes128-gcm", ["-c", "aes128-ctr,aes128-gcm"],
     "-c aes128-ctr,aes128-gcm: Unknown cipher type 'aes128-ctr,aes128-gcm' ('aes128-gcm' is not one)"),
    ("-c -aes128-cbc", ["-c", "-aes128-cbc"], "-c -aes128-cbc: Unknown cipher type '-aes128-cbc'"),
    ("-m hmac-sha256", ["-m", "hmac-sha256"], "-m hmac-sha256: Unknown mac type 'hmac-sha256'"),
    ("-m +hmac-sha1", ["-m", "+hmac-sha1"], "-m +hmac-sha1: Unknown mac type '+hmac-sha1'"),
    ("-o Ciphers=aes*", ["-o", "Ciphers=aes*"], "-o Ciphers=aes*: Bad SSH2 cipher spec 'aes*'"),
    ("-o MACs=^hmac-sha3", ["-o", "MACs=^hmac-sha3"], "-o MACs=^hmac-sha3: Bad SSH2 MAC spec '^hmac-sha3'"),
])
def test_an_unknown_cipher_or_mac_stops_the_inventory_at_its_line(
        tmp_path: Path, variable: str, ssh_args: list[str], said: str) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu00 ansible_host=127.0.0.1\n"
                                        f"gpu01 ansible_host=127.0.0.1 ansible_ssh_extra_args='{variable}'\n")
    with pytest.raises(UsageError) as refused:
        load_inventory(tmp_path / "hosts.ini").spec("gpu01")  # was read; the host failed later, at connect time
    assert str(refused.value).splitlines()[0] == (
        f"{tmp_path / 'hosts.ini'}:3: host gpu01: ansible_ssh_extra_args: {said}")
    assert "ssh -Q" in (refused.value.hint or "")
    assert _ssh_refuses(ssh_args) in (True, None)


@pytest.mark.parametrize("variable, keyword, value", [
    ("-c aes128-ctr,aes256-gcm@openssh.com", "ciphers", "aes128-ctr,aes256-gcm@openssh.com"),
    ("-c +aes128-cbc", "ciphers", "+aes128-cbc"),
    ("-c ^aes128-cbc", "ciphers", "^aes128-cbc"),
    ("-m hmac-sha2-256-etm@openssh.com", "macs", "hmac-sha2-256-etm@openssh.com"),
    ("-o MACs=+hmac-sha1", "macs", "+hmac-sha1"),
    ("-o Ciphers=-*cbc,nothing-by-this-name", "ciphers", "-*cbc,nothing-by-this-name"),
])
def test_lists_ssh_takes_still_load(tmp_path: Path, variable: str, keyword: str, value: str) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_ssh_extra_args='{variable}'\n")
    assert load_inventory(tmp_path / "hosts.ini").spec("gpu01").ssh_options[keyword] == value
    assert _ssh_refuses(variable.split(" ", 1)) in (False, None)


def test_the_run_stops_before_any_host_and_a_good_cipher_still_connects(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    connect = (f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
               f"ansible_ssh_common_args='-o UserKnownHostsFile={client.known_hosts}'")
    (tmp_path / "t.yaml").write_text(PLAYBOOK)
    (tmp_path / "bad.ini").write_text(f"[gpu]\ngpu01 {connect} ansible_ssh_extra_args='-c aes128-gcm'\n")
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "bad.ini"), "--batch", "--out", str(out))
    assert done.code == 2, done.stdout + done.stderr  # was 3: a run whose host failed "ssh config: Ciphers ..."
    assert "bad.ini:2: host gpu01: ansible_ssh_extra_args: -c aes128-gcm: Unknown cipher type 'aes128-gcm'" in done.stderr
    assert "ssh config:" not in done.stdout + done.stderr
    assert not out.exists() or not any(p.is_dir() for p in out.iterdir())

    (tmp_path / "good.ini").write_text(f"[gpu]\ngpu01 {connect} ansible_ssh_extra_args='-c aes128-gcm@openssh.com'\n")
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "good.ini"), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    assert [step["stdout"].strip() for step in json.loads((run_dir / "run.json").read_text())["steps"]] == ["hi"]
