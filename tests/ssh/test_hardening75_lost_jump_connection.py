"""A step cut off by its jump host's connection dropping, while the jump host stays up.

The loss is put down to the jump host (hardening: _blame_jump): "bastion rebooted, its sshd
restarted or the network to it dropped". The run then connects again through the bastion to stop
the step's command (hardening68); where that works at once, the bastion did not reboot, but the
hint still said it had, beside "it was stopped over a new connection" made through it. A direct
host that answers at once already gets "took a new connection at once ... not the host". Now the
jump host's does too.

Real sshds: the bastion's listener stays up; its connection processes are killed under the step
(a VPN blip, an OOM kill of the bastion's sshd session).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def _left(pattern: str) -> list[int]:
    said = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, timeout=10).stdout
    return [int(line.split()[0]) for line in said.splitlines()[1:] if pattern in line and "ps -ww" not in line]


def test_a_jump_connection_that_drops_while_the_bastion_stays_up_is_not_said_rebooted(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    target, bastion = sshd_factory("h75target"), sshd_factory("h75bastion")
    client.trust(target)
    client.trust(bastion)
    client.alias("bastion75", bastion)
    client.alias("gpu75j", target, ProxyJump="bastion75")
    began = tmp_path / "began"
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(f"name: serve\nsteps:\n  - id: launch\n    run: 'touch {began}; sleep 75.7; echo served'\n"
                        "  - id: after\n    run: echo after\n")

    def cut() -> None:  # the bastion's sessions die under the step; its listener stays up
        deadline = time.monotonic() + 50
        while not began.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in bastion.connection_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    cutter = threading.Thread(target=cut, daemon=True)
    cutter.start()
    out = tmp_path / "runs"
    try:
        result = subprocess.run(
            [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu75j", "-F", str(client.config),
             "--batch", "--out", str(out)], capture_output=True, text=True, timeout=60,
            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        )
        said = result.stdout + result.stderr
        assert _left("sleep 75.7") == [], said  # stopped over the new connection
    finally:
        cutter.join()
        for pid in _left("sleep 75.7"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert result.returncode == 3, said
    assert "Traceback" not in said, said
    _, record = load_run(out)
    launch = by_id(record, "gpu75j")["launch"]
    assert (launch["status"], launch["message"]) == (
        "error", "gpu75j: SSH connection lost during command: its jump host bastion75 dropped the connection"), json.dumps(launch)
    hint = record["hosts"][0]["hint"]
    assert hint.startswith(
        "bastion75 took a new connection at once, and gpu75j one through it: the connection through bastion75 ended (the "
        "network to it dropped a moment, or its sshd's session process was killed), not bastion75 itself; every host "
        "reached through it was cut off the same way; the step's command (process group "), hint
    assert hint.endswith("was still running on gpu75j; it was stopped over a new connection"), hint
    assert "rebooted" not in hint, hint
    assert f"  hint: {hint}\n" in said, said
