"""`BindInterface NAME`: connect from that interface's address, as ssh(1) does.

ssh(1) binds its socket to the first address of the interface, up, of the host's address
family, before connecting, and fails ("getifaddrs: NAME: no suitable addresses") where the
interface has none (openssh-portable: sshconnect.c, ssh_create_socket and check_ifaddrs).
spec-debug ignored the keyword: `BindInterface wg0` (leave through the VPN) connected from
whatever address the routing table chose, and where the interface did not exist we went on
as if nothing were set.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from spec_debug.runner.ssh_errors import HostUnreachableError
from spec_debug.runner.ssh_tcp import _tcp_connect

SSH = shutil.which("ssh")


def ssh_log(config: Path) -> str:
    if SSH is None:
        pytest.skip("needs OpenSSH's ssh(1) on PATH to compare with (CI gets it with openssh-server)")
    return subprocess.run([SSH, "-v", "-F", str(config), "-o", "BatchMode=yes", "gpu01", "true"], capture_output=True,
                          text=True, check=False, stdin=subprocess.DEVNULL, timeout=30).stderr


def test_bind_interface_binds_the_address_ssh_binds_and_connects_from_it(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  Port 1\n  BindInterface lo\n")  # ssh(1): refused at once
    bound = re.search(r"bound to (\S+)", ssh_log(config))
    assert bound is not None
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(10)  # a connect that went elsewhere fails the test, never hangs it
        config.write_text(f"Host gpu01\n  HostName 127.0.0.1\n  Port {listener.getsockname()[1]}\n  BindInterface lo\n")
        target = resolve_target("gpu01", load_ssh_config(config))
        assert target.bind_address == bound.group(1) == "127.0.0.1"
        with _tcp_connect(target) as sock:
            peer, _ = listener.accept()
            with peer:
                assert sock.getsockname()[0] == peer.getpeername()[0] == "127.0.0.1"


def test_bind_interface_that_does_not_exist_stops_as_in_ssh(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  Port 1\n  BindInterface nosuch0\n")
    assert "nosuch0: no suitable addresses" in ssh_log(config)
    with pytest.raises(HostUnreachableError) as stopped:
        resolve_target("gpu01", load_ssh_config(config))
    assert "BindInterface nosuch0: this machine has no interface nosuch0" in stopped.value.message


def test_bind_address_wins_over_bind_interface_and_a_proxy_binds_nothing(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  HostName 127.0.0.1\n  BindAddress 127.0.0.1\n  BindInterface nosuch0\n"
                      "Host gpu02\n  HostName 127.0.0.1\n  BindInterface nosuch0\n  ProxyJump jump\n")
    assert resolve_target("gpu01", load_ssh_config(config)).bind_address == "127.0.0.1"
    assert resolve_target("gpu02", load_ssh_config(config)).bind_address is None
