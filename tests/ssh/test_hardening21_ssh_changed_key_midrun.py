"""A host whose key changes in the middle of a run (reinstalled, or its address moved to another
machine: a VIP failover) is refused when the runner reconnects, and the hint says how to fix
known_hosts, not "the host rebooted, sshd restarted or the network dropped".

Real sshd: after the first attempt of the second step, the server goes down and a new one with
a new host key listens on the same port; the step's next attempt reconnects.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

StartServer = Callable[..., SshServer]

PLAYBOOK = """
name: changed_key
steps:
  - id: one
    run: echo one
  - id: two
    run: test -f {swapped} && echo two || {{ touch {began}; exit 1; }}
    retries: 3
    retry_delay: 3
    until: "exit_code == 0"
"""


def between_attempts(server: SshServer, began: Path) -> bool:
    """Whether step two's first attempt is over on the host and its exit status sent: it touched
    `began` as it failed, sshd has reaped its shell (no process but sshd's left, zombies
    included) and none of sshd's processes runs (each is back in its poll, what it had to
    send sent). The host going down during a command is 'connection lost during command', not
    the reconnect this test is about: 0.2 s after step one began, the old trigger, fell inside
    step one or the first attempt when a loaded machine stretched them."""
    if not began.exists():
        return False
    for pid in server.connection_pids():
        try:
            comm = Path(f"/proc/{pid}/comm").read_text()
            state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # gone meanwhile
        if not comm.startswith("sshd") or state == b"R":
            return False
    return True


def replace_after(began: Path, swapped: Path, server: SshServer, client_key: ClientKey, started: list[SshServer]) -> threading.Thread:
    """Between step two's attempts (its retry_delay of 3 s): the host goes down and comes back on
    its port with a new host key."""

    def swap() -> None:
        deadline = time.monotonic() + 60
        while not between_attempts(server, began) and time.monotonic() < deadline:
            time.sleep(0.02)
        server.stop()
        server.regenerate_host_key()
        # A second Port line: the new sshd listens on the old port too (sshd_config(5), Port).
        started.append(SshServer(server.workdir, [client_key], extra_config=f"Port {server.port}\n").start())
        swapped.touch()

    thread = threading.Thread(target=swap, daemon=True)
    thread.start()
    return thread


def test_a_host_key_that_changes_mid_run_is_refused_with_the_known_hosts_fix(
    cli: Callable[..., Any], client: ClientSetup, client_key: ClientKey, sshd_factory: StartServer, tmp_path: Path
) -> None:
    server = sshd_factory("rekeyed")
    client.trust(server)
    # A reconnect refused while the new sshd is not yet listening (its start on a loaded machine
    # may take more of the 3 s retry_delay than the swap has) is tried again each second.
    client.alias("gpu", server, ConnectionAttempts=30)
    began, swapped = tmp_path / "began", tmp_path / "swapped"
    playbook = tmp_path / "changed_key.yaml"
    playbook.write_text(PLAYBOOK.format(began=began, swapped=swapped))
    out = tmp_path / "runs"
    started: list[SshServer] = []
    swapper = replace_after(began, swapped, server, client_key, started)
    try:
        result = cli("run", str(playbook), "--host", "gpu", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    finally:
        swapper.join()
        for new in started:
            new.stop()
    assert_clean_cli(result)
    assert result.code == 3, result.stderr
    _, record = load_run(out)
    steps = by_id(record, "gpu")
    assert steps["one"]["status"] == "passed"
    assert "HOST KEY CHANGED" in steps["two"]["message"]
    host = record["hosts"][0]
    assert host["status"] == "error" and "ssh-keygen -R" in host["hint"], host["hint"]
    assert "rebooted" not in host["hint"]
    assert "ssh-keygen -R" in result.stderr
