"""ssh options from an inventory (ansible_ssh_common_args) read as ssh(1)'s getopt reads them.

Only an option word's second character was read: `-vJ jump` (verbose, then a jump host) left
`jump` a stray word and the inventory was refused, `-Ap2222` lost its port. And a port ssh(1)
calls bad (`-p 0`, `-p 65536`, `-p abc`, `Port 0` in a block of another host) was taken, or
hinted back as `gpu01:0`. Each spelling is checked against what `ssh -G` prints on this machine.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")
needs_ssh = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with")

SPELLINGS = [
    "-vJ jump", "-vJjump", "-Ap2222", "-4vp 2222", "-vo Port=2200", "-vlbob -p 2201", "-At6", "-46",
    "-4o AddressFamily=inet6", "-CAi /dev/null -l deploy", "-p +22", "-p 022", "-p ssh",
    "-p 22 -p abc", "-o Port=2200 -p 0", "-J a -o ProxyJump=b",
    # what ssh(1) refuses
    "-p 0", "-p 65536", "-p abc", "-p 0x16", "-vpv", "-o Port=0", "-o Port=22 -o Port=abc",
    "-AJ j1 -J j2", "-o ProxyJump=a -J b", "-Z",
]


def _ssh_G(args: str, config: Path) -> dict[str, str] | None:
    """What `ssh -G` makes of the options: its port/user/proxyjump/addressfamily, None if it refuses them."""
    said = subprocess.run([SSH, "-F", str(config), "-G", *shlex.split(args), "gpu01"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=30, check=False)
    if said.returncode != 0:
        return None
    lines = dict(line.split(" ", 1) for line in said.stdout.splitlines() if " " in line)
    return {key: lines.get(key, "") for key in ("port", "user", "proxyjump", "addressfamily")}


@needs_ssh
@pytest.mark.parametrize("args", SPELLINGS)
def test_each_spelling_of_ssh_options_reads_as_ssh_G_reads_it(tmp_path: Path, args: str) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  User root\n")
    expected = _ssh_G(args, config)
    if expected is None:
        with pytest.raises(UsageError) as refused:
            resolve_target("gpu01", load_ssh_config(config), ssh_options=parse_ssh_args(args, source="gpu01"))
        assert "\n" not in str(refused.value.args[0]) and refused.value.args[0].startswith("gpu01: ")
        return
    target = resolve_target("gpu01", load_ssh_config(config), ssh_options=parse_ssh_args(args, source="gpu01"))
    assert str(target.port) == expected["port"]
    assert target.user == expected["user"]
    assert ",".join(str(hop.destination.host) for hop in target.proxy_jump) == expected["proxyjump"]
    assert parse_ssh_args(args).get("addressfamily", "any") == expected["addressfamily"]


@needs_ssh
@pytest.mark.parametrize("block", ["Host other\n  Port 0\n", "Host gpu01\n  Port 2200\nHost *\n  Port 65536\n",
                                   "Host gpu01\n  Port abc\n"])
def test_a_bad_port_anywhere_in_the_config_is_refused_naming_the_line_as_ssh_does(tmp_path: Path, block: str) -> None:
    config = tmp_path / "config"
    config.write_text(block)
    assert _ssh_G("", config) is None
    line = block.count("\n")
    bad = block.split()[-1]
    with pytest.raises(UsageError, match=rf"^ssh config {config} line {line}: Bad port '{bad}'"):
        resolve_target("gpu01", load_ssh_config(config))


@pytest.mark.parametrize(("host", "bad"), [("ssh -p 0 gpu01", "0"), ("ssh -p 65536 gpu01", "65536"),
                                           ("ssh -p abc gpu01", "abc"), ("gpu01 65536", "65536")])
def test_a_pasted_bad_port_is_refused_not_hinted_as_a_host_to_write(host: str, bad: str) -> None:
    """It was "write --host gpu01:65536" (or gpu01, dropping `-p abc`): a host no ssh reaches."""
    with pytest.raises(UsageError) as refused:
        resolve_hosts([host], [], None, None)
    assert refused.value.args[0] == f"--host {host!r}: Bad port {bad!r}"


@pytest.mark.parametrize("port", ["0", "65536"])
def test_an_inventory_port_ssh_calls_bad_is_refused_naming_the_host(tmp_path: Path, port: str) -> None:
    """Ansible runs ssh -o Port=0 ("Bad port '0'"); port 0 was read as no port (22), 65536 as a
    Port error of "ssh config"."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\ngpu01 ansible_port={port}\n")
    with pytest.raises(UsageError) as refused:
        resolve_hosts([], [], inventory, None)
    # the line that set it (hardening55): hosts.ini:2
    assert refused.value.args[0] == f"{inventory}:2: host gpu01: ansible_port {port}: Bad port"
