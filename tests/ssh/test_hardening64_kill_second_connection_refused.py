"""A step times out on a `MaxSessions 1` host whose sshd stopped listening while it ran.

The step holds the host's only session, so its kill goes over a second connection. `systemctl
stop ssh` (or a crashed listener, or MaxStartups) refuses that connection while the open sessions
live on. The refused connection was returned as if the kill had run: the step was recorded
"timed out after N s; process tree killed" (no left_running), while it ran on and kept the only
session, and each later step of the host waited for a channel and failed "raise MaxSessions".
Now the step says its processes could not be killed and why, its record names the check that
finds them (left_running), and the host ends there. Ctrl-C in the same state said only
"interrupted: Ctrl-C", with no left_running: the step's record now says it was not killed, why,
and how to find it, as for a step interrupted before its pid came.

The host is real: the test kills sshd's listener (only) while the step's `sleep` runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return b""


def _run_while_the_listener_dies(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, *, timeout: str, ctrl_c: bool
) -> tuple[str, str, dict[str, Any]]:
    """Run a playbook whose `hang` step sleeps on a MaxSessions 1 host; kill sshd's listener once
    the sleep runs (then Ctrl-C if `ctrl_c`). Returns the sleep's marker, what the CLI said and
    run.json, after checking the sleep outlived the run (nothing killed it) and killing it."""
    server = sshd_factory("h64kill", extra_config="MaxSessions 1\n")
    client.trust(server)
    client.alias("gpu64", server)
    marker = f"61.{os.getpid() % 1000:03d}1"  # a sleep only this test runs
    playbook = tmp_path / "hang.yaml"
    playbook.write_text(
        "name: hang\nsteps:\n"
        f"  - id: hang\n    run: sleep {marker}; echo never\n{timeout}"
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
        if ctrl_c:
            run.send_signal(signal.SIGINT)
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
    return marker, said, load_run(out)[1]


def test_a_timed_out_step_whose_kill_connection_is_refused_is_not_called_killed(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    marker, said, record = _run_while_the_listener_dies(client, sshd_factory, tmp_path, timeout="    timeout: 4\n", ctrl_c=False)
    step = by_id(record, "gpu64")["hang"]
    assert step["status"] == "timeout", step  # it timed out; the kill that did not reach it is the host's error (hardening70)
    assert "killed" not in step["message"].replace("could not be killed", ""), step["message"]
    assert step["message"].startswith("gpu64: the step timed out (4 s) and its processes could not be killed: "), step["message"]
    assert "second connection failed: connection refused" in step["message"], step["message"]
    assert step["left_running"] is not None and marker.replace(".", "[.]") in step["left_running"]["check"], step
    host = record["hosts"][0]
    assert host["status"] == "error" and host["error"] == step["message"], host
    assert "may still run on the host" in host["hint"], host
    assert f"host gpu64 error: {step['message']}" in said, said


def test_ctrl_c_whose_kill_connection_is_refused_says_the_step_may_still_run(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    marker, said, record = _run_while_the_listener_dies(client, sshd_factory, tmp_path, timeout="", ctrl_c=True)
    assert record["status"] == "aborted" and record["hosts"][0]["status"] == "aborted", record["hosts"]
    step = by_id(record, "gpu64")["hang"]
    assert step["status"] == "error", step
    assert step["left_running"] is not None and marker.replace(".", "[.]") in step["left_running"]["check"], step
    assert step["message"].startswith(
        "interrupted: Ctrl-C; not killed: sshd refused the kill a channel (the step fills the host's MaxSessions) and a "
        "second connection failed: connection refused by 127.0.0.1:"
    ), step["message"]
    assert f"so the command may still be running on gpu64; check there with `{step['left_running']['check']}`" in step["message"]
    assert "process tree killed" not in said, said
