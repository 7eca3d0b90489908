"""`ConnectionAttempts 3` for a host whose sshd is down: we tried three times, a second apart,
as ssh(1) does, and then said "connection refused by HOST:PORT" alone. Whoever reads that in
run.json or the report takes it for one try and raises ConnectionAttempts, which was raised
already; the message says how many attempts were made."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, write_ssh_config


def _host_error(cli: Callable[..., Any], tmp_path: Path, host: str) -> str:
    done, record = run_tiny(cli, tmp_path, "runs", "--host", host)
    assert done.code == 3, done.stdout + done.stderr
    return record["hosts"][0]["error"]


def test_a_host_refused_on_every_attempt_says_how_many_were_made(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, closed_port: Callable[[], int]) -> None:
    down = closed_port()
    client.hosts["rebooting"] = {"HostName": "127.0.0.1", "Port": down, "ConnectionAttempts": 3}
    write_ssh_config(client.config, client.hosts)
    assert _host_error(cli, tmp_path, "rebooting") == (
        f"rebooting: connection refused by 127.0.0.1:{down} after 3 attempts (ConnectionAttempts 3)")


def test_a_single_attempt_is_said_as_before(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path,
                                            closed_port: Callable[[], int]) -> None:
    down = closed_port()
    client.hosts["down"] = {"HostName": "127.0.0.1", "Port": down}
    write_ssh_config(client.config, client.hosts)
    assert _host_error(cli, tmp_path, "down") == f"down: connection refused by 127.0.0.1:{down}"
