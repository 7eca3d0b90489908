"""A ProxyCommand that takes its time before the host's banner comes through: cloudflared, tsh
and `aws sso` open a browser to log in first; `gcloud compute start-iap-tunnel` and `aws ssm
start-session` take seconds to set up. ssh(1) with no ConnectTimeout waits for the banner
without bound (openssh-portable: ssh.c, ssh_login with timeout_ms 0); spec-debug gave up at its
own 15 s and blamed the host ("the host accepts TCP but sshd does not answer ... the wrong
port"), with no TCP of ours in sight. It now waits PROXY_COMMAND_HANDSHAKE_S there, and where a
ConnectTimeout does bound it (as for ssh(1)) the message names the ProxyCommand."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


def _slow_proxy(client: ClientSetup, seconds: int) -> str:
    return f"sh -c 'sleep {seconds}; exec ssh -F {client.config} -W %h:%p target'"


def _ssh(client: ClientSetup, alias: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL, check=False)


def test_a_proxy_command_slower_than_15_s_is_waited_for_as_ssh_waits(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.alias("gpu01", sshd, ProxyCommand=_slow_proxy(client, 18))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_a_proxy_command_past_the_connect_timeout_given_is_named(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.alias("gpu01", sshd, ProxyCommand=_slow_proxy(client, 8), ConnectTimeout=2)
    assert _ssh(client, "gpu01").returncode == 255
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert "within 2 s through its ProxyCommand" in error, error
    assert "accepts TCP" not in done.stderr and "set ConnectTimeout for this host" in done.stderr, done.stderr
