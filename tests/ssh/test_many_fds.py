"""A controller with a thousand descriptors open: a big fleet with a high --forks, run where
the file limit is raised (containers often allow 1048576). select() cannot watch a descriptor
numbered 1024 or above (FD_SETSIZE) and raises ValueError; every wait must work past it."""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path
from typing import Iterator

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer

FD_SETSIZE = 1024


@pytest.fixture
def high_descriptors() -> Iterator[None]:
    """Fill the descriptor table up to FD_SETSIZE, so the next ones opened are numbered past it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FD_SETSIZE + 256
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"the hard file limit ({hard}) is below {wanted}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held: list[int] = []
    try:
        while True:
            fd = os.open(os.devnull, os.O_RDONLY)
            held.append(fd)
            if fd >= FD_SETSIZE:
                break
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


PROXY = """
import os, socket, sys, threading
sock = socket.create_connection((sys.argv[1], int(sys.argv[2])))
def upstream():
    for chunk in iter(lambda: os.read(0, 65536), b""):
        sock.sendall(chunk)
threading.Thread(target=upstream, daemon=True).start()
for chunk in iter(lambda: sock.recv(65536), b""):
    os.write(1, chunk)
"""


def test_commands_and_proxycommand_work_with_descriptors_past_fd_setsize(
    client: ClientSetup, sshd: SshServer, high_descriptors: None, tmp_path: Path
) -> None:
    proxy = tmp_path / "proxy.py"
    proxy.write_text(PROXY)
    client.alias("proxied", sshd, ProxyCommand=f"{sys.executable} {proxy} %h %p")
    for alias in ("target", "proxied"):
        with SSHTransport.connect(alias, client.options()) as transport:
            out = StreamCapture("stdout")
            outcome = transport.run("echo hello", stdout=out, stderr=StreamCapture("stderr"), timeout_s=30)
            assert (outcome.exit_code, out.text()) == (0, "hello\n")
