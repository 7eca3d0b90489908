"""The host's sshd session process killed (SIGKILL) while a step runs: the step is named.

The OOM killer, an admin's `pkill sshd` or a crashing sshd takes the connection down under a
long step. run.json kept the step's record, but the console showed the steps before it and
then only "host gpu3 error: gpu3: SSH connection lost during command": which step was cut was
in run.json alone. Now the console has the cut step's line before the host's error. The run
record keeps the host, the step (its output until the drop) and SD005, and the run exits 3
(docs/reports.md: a host unreachable); SD005 stays host-wide (`step: null`, as JUnit expects).

The server is real (tests/sshd_fixture.py); only its per-connection `sshd:` process is killed,
the listener stays up, as when the OOM killer picks the session.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable

from tests.conftest import only_run
from tests.ssh.test_fleet_faults import assert_clean_cli
from tests.sshd_fixture import ClientSetup, SshServer


def _session_sshds(server: SshServer) -> list[int]:
    """The server's per-connection sshd processes (not the shell and step under them)."""
    pids = []
    for pid in server.connection_pids():
        try:
            if Path(f"/proc/{pid}/comm").read_text().startswith("sshd"):
                pids.append(pid)
        except OSError:
            pass  # a helper that already exited
    return pids


def _kill_sessions_once_started(server: SshServer, mark: Path) -> threading.Thread:
    def kill() -> None:
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in _session_sshds(server):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def test_a_killed_session_sshd_names_the_host_and_the_cut_step(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("killed")
    client.alias("gpu3", server)
    client.trust(server)
    mark = tmp_path / "started"
    playbook = tmp_path / "launch.yaml"
    playbook.write_text(
        "name: launch\nsteps:\n  - id: env\n    run: echo env ok\n"
        f"  - id: launch\n    run: echo loading; touch {mark}; sleep 60\n    timeout: 90\n"
        "  - id: bench\n    run: echo bench\n"
    )
    killer = _kill_sessions_once_started(server, mark)
    result = cli("run", str(playbook), "--host", "gpu3", "-F", str(client.config), "--batch", "--out", str(tmp_path / "out"), timeout=120)
    killer.join()
    assert_clean_cli(result)
    assert result.code == 3, result.stderr
    lines = result.stderr.splitlines()
    launch_line = next(i for i, line in enumerate(lines) if " launch " in f"{line} " and "error" in line)
    assert lines[launch_line].split()[:3] == ["gpu3", "error", "launch"]
    assert lines[launch_line + 1] == "host gpu3 error: gpu3: SSH connection lost during command"
    _, record = only_run(tmp_path / "out")
    [host] = record["hosts"]
    assert (host["status"], host["error"]) == ("error", "gpu3: SSH connection lost during command")
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["env"]["status"] == "passed" and "bench" not in steps
    assert (steps["launch"]["status"], steps["launch"]["stdout"], steps["launch"]["exit_code"]) == ("error", "loading\n", None)
    assert steps["launch"]["message"] == "gpu3: SSH connection lost during command"
    [lost] = [f for f in record["findings"] if f["code"] == "SD005"]
    assert (lost["host"], lost["step"], lost["evidence"]) == ("gpu3", None, ["gpu3: SSH connection lost during command"])

