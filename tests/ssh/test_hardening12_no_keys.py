"""`-o PreferredAuthentications=password -o PubkeyAuthentication=no`: log in with the password,
offer no key.

The incantation people put in `ansible_ssh_common_args` (or a Host block) for password-only lab
boxes, precisely because a full ssh-agent trips sshd's MaxAuthTries (6 by default: "Too many
authentication failures") before the password is ever tried. ssh(1) then offers no key at all
(ssh_config(5): PubkeyAuthentication; PreferredAuthentications without `publickey` leaves it
out). spec-debug offered every agent key anyway, so sshd hung up before the password, and the
message blamed the keys the user had just turned off.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import start_password_server
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PASSWORD = "Gpu-lab-2024!"
USER = pwd.getpwuid(os.getuid()).pw_name


@pytest.fixture
def full_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A real ssh-agent holding more keys than the box's MaxAuthTries, none of them authorized."""
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None:
        pytest.skip("needs ssh-agent and ssh-add")
    socket_path = tmp_path / "agent.sock"
    process = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not socket_path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
        for number in range(4):
            key = ClientKey.create(tmp_path / "agent-keys", f"id_{number}")
            subprocess.run(["ssh-add", str(key.path)], check=True, capture_output=True, stdin=subprocess.DEVNULL)
        yield socket_path
    finally:
        process.kill()
        process.wait()


@pytest.fixture
def lab_box(client: ClientSetup, tmp_path: Path) -> Iterator[SshServer]:
    """Passwords and keys both allowed (sshd's defaults), MaxAuthTries 3."""
    server = start_password_server(tmp_path / "lab", PASSWORD, extra_config="MaxAuthTries 3\n")
    client.trust(server)
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("unused", server)
    yield server
    server.stop()


def _inventory(tmp_path: Path, server: SshServer, common_args: str) -> Path:
    path = tmp_path / "hosts.yml"
    path.write_text(
        "all:\n  hosts:\n    lab01:\n"
        f"      ansible_host: {server.address}\n      ansible_port: {server.port}\n      ansible_user: {USER}\n"
        f"      ansible_password: '{PASSWORD}'\n      ansible_ssh_common_args: '{common_args}'\n"
    )
    return path


def _whoami(transport: SSHTransport) -> str:
    stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
    transport.run("id -un", stdout=stdout, stderr=stderr, timeout_s=30)
    stdout.close()
    stderr.close()
    return stdout.text().strip()


@pytest.mark.parametrize("common_args", [
    "-o PreferredAuthentications=password -o PubkeyAuthentication=no",
    "-o PubkeyAuthentication=no",
    "-o PreferredAuthentications=keyboard-interactive,password",
])
def test_keys_turned_off_are_not_offered_and_the_password_logs_in(
    client: ClientSetup, lab_box: SshServer, full_agent: Path, tmp_path: Path, common_args: str
) -> None:
    [spec] = resolve_hosts(["lab01"], [], _inventory(tmp_path, lab_box, common_args), None)
    with open_transport(spec, client.options(use_agent=True)) as transport:
        assert _whoami(transport) == USER  # type: ignore[arg-type]


def test_with_keys_off_and_no_password_the_message_says_keys_are_off(client: ClientSetup, lab_box: SshServer) -> None:
    client.alias("lab01", lab_box, User=USER, PubkeyAuthentication="no")
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("lab01", client.options())
    message = refused.value.message
    assert "key logins are off for this host in your ssh config (PubkeyAuthentication no)" in message, message
    assert "agent empty" not in message, message
