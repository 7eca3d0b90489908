"""A step whose SSH session dies while the host stays up has its command stopped over a new connection.

sshd's session process killed under a running step (the OOM killer picks it; a network blip ends
the session) leaves the step's command running under init, holding its GPUs and port. The host
still took connections, but the run only recorded the command as left running, with a `ps | grep`
line for the user to find and kill it by hand, and a hint that the host may have rebooted.

The host is real: the step kills its own sshd session process (`kill -9 $PPID`); sshd's listener
stays up. The run now connects again (within a few seconds), kills the step's process group there,
checks that it is gone, and says so.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def _left(pattern: str) -> list[int]:
    said = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, timeout=10).stdout
    return [int(line.split()[0]) for line in said.splitlines()[1:] if pattern in line and "ps -ww" not in line]


def test_a_step_cut_by_its_session_dying_is_stopped_over_a_new_connection(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("h68stop")
    client.trust(server)
    client.alias("gpu36", server)
    command = "(sleep 1; kill -9 $PPID) & sleep 68.6; echo served"
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(f"name: serve\nsteps:\n  - id: launch\n    run: {json.dumps(command)}\n  - id: after\n    run: echo after\n")
    out = tmp_path / "runs"
    try:
        started = time.monotonic()
        result = subprocess.run(
            [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu36", "-F", str(client.config),
             "--batch", "--out", str(out)], capture_output=True, text=True, timeout=60,
            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
        )
        took = time.monotonic() - started
        said = result.stdout + result.stderr
        # The step's command is gone from the host: its shell and its sleep.
        assert _left("sleep 68.6") == [], said
    finally:
        for pid in _left("sleep 68.6"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert result.returncode == 3, said  # the step still failed: its connection was lost
    assert "Traceback" not in said, said
    assert took < 30, took
    _, record = load_run(out)
    launch = by_id(record, "gpu36")["launch"]
    assert (launch["status"], launch["message"]) == ("error", "gpu36: SSH connection lost during command"), json.dumps(launch)
    assert launch["left_running"] is None, json.dumps(launch)
    hint = record["hosts"][0]["hint"]
    assert hint.startswith("gpu36 took a new connection at once: the step's SSH session ended ("), hint
    assert hint.endswith("was still running on gpu36; it was stopped over a new connection"), hint
    assert "rebooted" not in hint, hint
    assert f"  hint: {hint}\n" in said, said
    assert [s["id"] for s in record["steps"]] == ["launch"], said
