"""A HostName that is an address written in another form than ssh(1)'s: its key is found.

ssh(1) rewrites every numeric address into the form getnameinfo gives it, CanonicalizeHostname
or not (openssh-portable: ssh.c, main: is_addr, resolve_canonicalize -> resolve_addr), and files
and looks up the host key under that form: `HostName 0:0:0:0:0:0:0:1` is `::1`, `127.1` is
`127.0.0.1`. spec-debug looked the key up under the name as written: "not in known_hosts" (a
batch run stopped) for a host `ssh` reaches with the key it filed itself. Compared with `ssh -G`
too; real sshd.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.ssh.h6_helpers import ipv6_sshd
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def _reached(client: ClientSetup) -> str:
    transport = SSHTransport.connect("gpu", client.options())
    try:
        out = StreamCapture("stdout")
        transport.run("echo reached", stdout=out, stderr=StreamCapture("stderr"))
        return out.text().strip()
    finally:
        transport.close()


def test_an_ipv4_address_in_short_form_finds_the_key_ssh_filed(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpu", sshd, HostName="127.1", StrictHostKeyChecking="yes")  # trusted as [127.0.0.1]:PORT
    assert _reached(client) == "reached"


def test_an_ipv6_address_written_out_in_full_finds_the_key_ssh_filed(
        client: ClientSetup, sshd_factory, monkeypatch: pytest.MonkeyPatch) -> None:
    server = ipv6_sshd("v6", sshd_factory, monkeypatch)
    client.trust(server)  # `[::1]:PORT`, as ssh(1) files it
    client.alias("gpu", server, HostName="0000:0000:0000:0000:0000:0000:0000:0001", StrictHostKeyChecking="yes")
    assert _reached(client) == "reached"


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs OpenSSH's ssh(1) to compare with")
@pytest.mark.parametrize("written", ["127.1", "0x7f000001", "2001:0DB8:0:0::0001", "2001:DB8::1", "::ffff:7f00:1", "GPU01"])
def test_the_host_name_is_the_one_ssh_g_prints(tmp_path: Path, written: str) -> None:
    config = write_ssh_config(tmp_path / "config", {"gpu": {"HostName": written}})
    printed = subprocess.run(["ssh", "-G", "-F", str(config), "gpu"], capture_output=True, text=True, check=True,
                             stdin=subprocess.DEVNULL, timeout=30).stdout
    (hostname,) = [line.split(" ", 1)[1] for line in printed.splitlines() if line.startswith("hostname ")]
    assert resolve_target("gpu", load_ssh_config(config)).hostname == hostname
