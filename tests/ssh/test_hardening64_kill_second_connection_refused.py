"""A step times out on a `MaxSessions 1` host whose sshd stopped listening while it ran.

The step holds the host's only session, so its kill goes over a second connection. `systemctl
stop ssh` (or a crashed listener, or MaxStartups) refuses that connection while the open sessions
live on. The refused connection was returned as if the kill had run: the step was recorded
"timed out after N s; process tree killed" (no left_running), while it ran on and kept the only
session, and each later step of the host waited for a channel and failed "raise MaxSessions".
Now the step says its processes could not be killed and why, its record names the check that
finds them (left_running), and the host ends there.

The host is real: the test kills sshd's listener (only) while the step's `sleep` runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return b""


def test_a_timed_out_step_whose_kill_connection_is_refused_is_not_called_killed(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("h64kill", extra_config="MaxSessions 1\n")
    client.trust(server)
    client.alias("gpu64", server)
    marker = f"61.{os.getpid() % 1000:03d}1"  # a sleep only this test runs
    playbook = tmp_path / "hang.yaml"
    playbook.write_text(
        "name: hang\nsteps:\n"
        f"  - id: hang\n    run: sleep {marker}; echo never\n    timeout: 4\n"
        "  - id: after\n    run: echo after\n"
    )
    out = tmp_path / "runs"
    run = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu64", "-F", str(client.config), "--batch",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1", "TERM": "dumb"},
    )
    orphans: list[int] = []
    try:
        deadline = time.monotonic() + 60
        wanted = f"sleep\0{marker}\0".encode()
        sleeping: list[int] = []
        while not sleeping:
            assert time.monotonic() < deadline and run.poll() is None, "the step did not start"
            pids = server.connection_pids()
            sleeping = [pid for pid in pids if _cmdline(pid) == wanted]
            time.sleep(0.05)
        assert server.process is not None
        orphans.extend(pids)  # the listener's children outlive it: the fixture's stop() no longer finds them
        os.kill(server.process.pid, signal.SIGKILL)  # the listener only: the step's session lives on
        said_out, said_err = run.communicate(timeout=60)
        said = said_out + said_err
        assert run.returncode == 3, said
        assert "Traceback" not in said, said
        still_running = _cmdline(sleeping[0]) == wanted
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        for pid in orphans:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert still_running  # nothing killed it: the record must not say it was
    _, record = load_run(out)
    step = by_id(record, "gpu64")["hang"]
    assert step["status"] == "error", step
    assert "killed" not in step["message"].replace("could not be killed", ""), step["message"]
    assert step["message"].startswith("gpu64: the step timed out (4 s) and its processes could not be killed: "), step["message"]
    assert "second connection failed: connection refused" in step["message"], step["message"]
    assert step["left_running"] is not None and marker.replace(".", "[.]") in step["left_running"]["check"], step
    host = record["hosts"][0]
    assert host["status"] == "error" and host["error"] == step["message"], host
    assert "may still run on the host" in host["hint"], host
    assert f"host gpu64 error: {step['message']}" in said, said
