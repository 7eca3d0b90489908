"""A host whose key changes in the middle of a run (reinstalled, or its address moved to another
machine: a VIP failover) is refused when the runner reconnects, and the hint says how to fix
known_hosts, not "the host rebooted, sshd restarted or the network dropped".

Real sshd: after the first step, the server goes down and a new one with a new host key
listens on the same port; the next step's attempt reconnects.
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
    run: touch {began}; echo one
  - id: two
    run: test -f {swapped} && echo two
    retries: 3
    retry_delay: 1
    until: "exit_code == 0"
"""


def replace_after(began: Path, swapped: Path, server: SshServer, client_key: ClientKey, started: list[SshServer]) -> threading.Thread:
    """Once `began` exists: the host goes down and comes back on its port with a new host key."""

    def swap() -> None:
        deadline = time.monotonic() + 30
        while not began.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
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
    client.alias("gpu", server)
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
