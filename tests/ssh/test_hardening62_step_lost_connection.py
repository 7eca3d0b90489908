"""`run --step` and a step whose connection drops while it runs.

Step-through mode ends each step with its own line ("→ serve passed: …", "→ serve timed out
and was stopped."), after the user said "run". A step lost to a dropped connection (sshd's
process for the session killed: an OOM kill, an sshd restart, a network cut) got none: the
user who had just typed "r" saw the host's error line and no word about the step they ran,
though run.json records it as that step's error.

The host is real: the step kills its own sshd session process (`kill -9 $PPID`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = (
    "name: serve\nsteps:\n"
    "  - id: before\n    run: echo ready\n"
    "  - id: drop\n    title: The step the connection is lost in\n    run: kill -9 $PPID; sleep 5\n"
    "  - id: after\n    run: echo never\n"
)


def test_a_step_lost_with_its_connection_gets_its_own_line(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("h62steplost")
    client.trust(server)
    client.alias("gpu21", server)
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu21", "-F", str(client.config),
                             "--step", "--out", str(out)], input="r\nr\nr\n", capture_output=True, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    said = result.stdout + result.stderr
    assert result.returncode == 3, said
    assert "Traceback" not in said, said
    record = load_run(out)[1]
    drop = next(s for s in record["steps"] if s["id"] == "drop")
    assert drop["status"] == "error", json.dumps(drop)
    assert "→ before passed" in said, said
    lines = [line for line in said.splitlines() if line.startswith("→ drop ")]
    assert lines == [f"→ drop could not run {drop['message']}"], said
    assert "→ after" not in said, said
