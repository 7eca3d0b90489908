"""`ConnectionAttempts 3` for a host whose sshd is down: we tried three times, a second apart,
as ssh(1) does, and then said "connection refused by HOST:PORT" alone. Whoever reads that in
run.json or the report takes it for one try and raises ConnectionAttempts, which was raised
already; the message says how many attempts were made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, free_port, write_ssh_config

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def _host_error(cli: Callable[..., Any], tmp_path: Path, host: str) -> str:
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", host, "--batch", "--out", str(tmp_path / "runs"))
    assert done.code == 3, done.stdout + done.stderr
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    return json.loads((run_dir / "run.json").read_text())["hosts"][0]["error"]


def test_a_host_refused_on_every_attempt_says_how_many_were_made(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    down = free_port()
    client.hosts["rebooting"] = {"HostName": "127.0.0.1", "Port": down, "ConnectionAttempts": 3}
    write_ssh_config(client.config, client.hosts)
    assert _host_error(cli, tmp_path, "rebooting") == (
        f"rebooting: connection refused by 127.0.0.1:{down} after 3 attempts (ConnectionAttempts 3)")


def test_a_single_attempt_is_said_as_before(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    down = free_port()
    client.hosts["down"] = {"HostName": "127.0.0.1", "Port": down}
    write_ssh_config(client.config, client.hosts)
    assert _host_error(cli, tmp_path, "down") == f"down: connection refused by 127.0.0.1:{down}"
