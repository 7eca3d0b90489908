"""A `MaxSessions 1` host whose only session is held by a stuck copy, and whose sshd stopped listening.

A fetch given up on a file that hangs (a FIFO nobody writes, a log on a dead NFS mount) leaves the
host's SFTP server blocked in open(), and sshd counts its session (hardening 20). The next step
is refused a channel, and goes on over a new connection. When the host took no new connection
(its listener stopped - `systemctl stop ssh` keeps open sessions - or at MaxStartups) the step
said only "the server refused a new session channel" with the hint "raise MaxSessions": the
reason the way around it failed was dropped. It is now in the message.

The host is real: sshd with MaxSessions 1 and its internal SFTP server, a FIFO with no writer,
and a step that kills sshd's listener (only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening20_ssh_stuck_session import hung_log  # noqa: F401  (a fixture)
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_refused_channel_whose_new_connection_is_refused_says_both(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], hung_log: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    server = sshd_factory("h64one", extra_config="MaxSessions 1\n")
    client.trust(server)
    client.alias("gpu16", server)
    assert server.process is not None
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"""
name: grab
steps:
  - id: stop_listener
    run: kill -9 {server.process.pid}
  - id: server_log
    timeout: 2
    fetch: {{src: "{hung_log}", dest: logs}}
  - id: gpus
    run: echo 'GPU 0'
"""
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu16", "-F", str(client.config), "--batch", "--out", str(out), timeout=90)
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = by_id(record, "gpu16")
    assert steps["stop_listener"]["status"] == "passed", steps["stop_listener"]
    assert steps["server_log"]["status"] == "timeout", steps["server_log"]
    host = record["hosts"][0]
    assert host["status"] == "error", host
    assert host["error"].startswith("gpu16: the server refused a new session channel"), host["error"]
    assert "; reconnecting failed: gpu16: connection refused by 127.0.0.1:" in host["error"], host["error"]
    assert steps["gpus"]["message"] == host["error"], steps["gpus"]
    assert host["hint"] == (
        "lower the number of concurrent commands or raise MaxSessions in sshd_config; the new connection tried in its place "
        "failed: check that the host's sshd still takes connections (`ssh HOST true`)"
    ), host["hint"]
