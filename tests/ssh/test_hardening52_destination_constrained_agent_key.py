"""A key added to ssh-agent with destination constraints (`ssh-add -h HOST`, OpenSSH 8.9+: the
agent signs only for the named hosts). ssh(1) binds its agent connection to the host
(session-bind@openssh.com) and logs in; ssh-agent refuses to sign on spec-debug's unbound
connection (openssh-portable: ssh-agent.c, process_sign_request), and the hint named a FIDO
token and `ssh-add -c`, not the -h the key was added with. It names it now, and the way round
it, which works."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.sshd_fixture import ClientSetup, SshServer


@pytest.fixture
def agent_socket(tmp_path: Path) -> Iterator[Path]:
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None or shutil.which("ssh") is None:
        pytest.skip("ssh-agent, ssh-add and ssh(1) to compare with are not installed")
    socket_path = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while subprocess.run(["ssh-add", "-l"], env={**os.environ, "SSH_AUTH_SOCK": str(socket_path)},
                             capture_output=True, check=False).returncode == 2:
            assert time.monotonic() < deadline and agent.poll() is None, "ssh-agent did not start"
            time.sleep(0.05)
        yield socket_path
    finally:
        agent.kill()
        agent.wait()


def _ssh_add(socket_path: Path, *args: str) -> None:
    subprocess.run(["ssh-add", *args], env={**os.environ, "SSH_AUTH_SOCK": str(socket_path)}, check=True,
                   capture_output=True, stdin=subprocess.DEVNULL, timeout=30)


def test_an_agent_key_constrained_to_the_host_is_named_with_the_way_round(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, agent_socket: Path) -> None:
    _ssh_add(agent_socket, "-H", str(client.known_hosts), "-h", sshd.known_hosts_name, str(client.key.path))
    client.alias("gpu01", sshd, IdentityFile="none", IdentitiesOnly="no")
    by_ssh = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"],
                            env={**os.environ, "SSH_AUTH_SOCK": str(agent_socket)}, capture_output=True, text=True,
                            timeout=30, stdin=subprocess.DEVNULL, check=False)
    assert by_ssh.returncode == 0, by_ssh.stderr
    tiny = tmp_path / "tiny.yaml"
    tiny.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n")
    done = cli("run", str(tiny), "--host", "gpu01", "--batch", "--out", str(tmp_path / "constrained"),
               env={"SSH_AUTH_SOCK": str(agent_socket)})
    assert done.code == 3, done.stdout + done.stderr
    assert "ssh-agent would not sign" in done.stderr and "`ssh-add -h`" in done.stderr, done.stderr
    # The way round it that the hint names: the key added again without -h.
    _ssh_add(agent_socket, "-D")
    _ssh_add(agent_socket, str(client.key.path))
    done = cli("run", str(tiny), "--host", "gpu01", "--batch", "--out", str(tmp_path / "plain"),
               env={"SSH_AUTH_SOCK": str(agent_socket)})
    assert done.code == 0, done.stdout + done.stderr
