"""A host whose key known_hosts marks `@revoked`, under `StrictHostKeyChecking no` (lab configs
set it for every host). ssh(1) warns ("REVOKED HOST KEY DETECTED") and goes on, with password
and keyboard-interactive logins and agent forwarding turned off, so only a key can log in
(openssh-portable: sshconnect.c, check_host_key, HOST_REVOKED: only SSH_STRICT_HOSTKEY_OFF goes
on, to continue_unsafe). spec-debug refused the host outright, as under `yes`: the run failed on a
host `ssh` reached. Under any other setting both still refuse."""

from __future__ import annotations

import getpass
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.hosts import open_transport, resolve_hosts
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import start_password_server
from tests.ssh.h49_helpers import run_tiny
from tests.ssh.test_hardening7_ssh import bastion  # noqa: F401 - the keyboard-interactive sshd fixture
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh(client: ClientSetup, alias: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)


def _revoke(client: ClientSetup, sshd: SshServer) -> None:
    client.known_hosts.write_text(f"@revoked {sshd.known_hosts_line}")


def test_a_revoked_host_key_under_strict_checking_no_logs_in_with_a_key_and_says_so(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    _revoke(client, sshd)
    client.alias("gpu01", sshd, StrictHostKeyChecking="no")
    by_ssh = _ssh(client, "gpu01")
    assert by_ssh.returncode == 0 and "REVOKED HOST KEY" in by_ssh.stderr, by_ssh.stderr
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0, done.stdout + done.stderr
    assert record["hosts"][0]["status"] == "passed", record["hosts"][0]
    assert "is marked @revoked in known_hosts" in done.stderr, done.stderr
    assert "StrictHostKeyChecking no" in done.stderr, done.stderr


@pytest.mark.parametrize("setting", ["yes", "accept-new"])
def test_a_revoked_host_key_is_refused_under_any_other_setting(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, setting: str) -> None:
    _revoke(client, sshd)
    client.alias("gpu01", sshd, StrictHostKeyChecking=setting)
    assert _ssh(client, "gpu01").returncode == 255
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "is marked @revoked in known_hosts; refusing to connect" in record["hosts"][0]["error"], record["hosts"][0]


def test_a_revoked_host_key_let_through_refuses_the_one_time_code_and_says_why(
        client: ClientSetup, bastion: SshServer) -> None:
    """A keyboard-interactive bastion (PAM): ssh(1) turns that login off for a host let in only by
    StrictHostKeyChecking no; the message said "the host key changed" of a key revoked on purpose."""
    _revoke(client, bastion)
    client.alias("bastion", bastion, StrictHostKeyChecking="no")
    with pytest.raises(AuthenticationError, match="disabled because the host key changed or is marked @revoked"):
        SSHTransport.connect("bastion", client.options(batch=False, prompt=lambda question: "code-123456"))


def test_a_revoked_host_key_let_through_sends_no_inventory_password_and_says_why(
        client: ClientSetup, tmp_path: Path) -> None:
    """ssh(1) turns password logins off there too (continue_unsafe): the message said it does so
    "after a changed host key" of a key revoked on purpose."""
    server = start_password_server(tmp_path / "pwbox", "Gpu-lab-2024!", extra_config="PubkeyAuthentication no\n")
    try:
        _revoke(client, server)
        inventory = tmp_path / "hosts.yml"
        inventory.write_text(
            f"all:\n  hosts:\n    lab01:\n      ansible_host: {server.address}\n      ansible_port: {server.port}\n"
            f"      ansible_user: {getpass.getuser()}\n      ansible_password: Gpu-lab-2024!\n"
            f"      ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile={client.known_hosts}\n")
        [spec] = resolve_hosts(["lab01"], [], inventory, None)
        with pytest.raises(AuthenticationError) as info:
            open_transport(spec, client.options())
        assert "do not send to a host let in by StrictHostKeyChecking no (its key changed or @revoked)" in str(info.value)
    finally:
        server.stop()
