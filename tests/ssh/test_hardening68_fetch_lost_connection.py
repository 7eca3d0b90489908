"""A fetch step whose connection drops after some of its files were copied.

`fetch: {src: [/var/log/serve.log, /var/log/router.log, /data/core.dump]}` on a host that goes
down (an OOM kill of sshd, a reboot, a network cut) while the core dump copies: the two logs
were copied whole and lay in runs/<id>/artifacts/, but run.json listed the step with no
artifacts, started the moment the connection was found lost, 0 s long. The reports, which are
views of the record, did not link the logs the user needed to see why the host went down.

The host is real: its sshd (listener and sessions) is killed with SIGKILL while the third file
copies.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def test_files_copied_before_the_connection_dropped_stay_in_the_record(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    dying = sshd_factory("h68fetchlost")
    client.trust(dying)
    client.alias("gpu31", dying)
    logs = tmp_path / "remote"
    logs.mkdir()
    (logs / "serve.log").write_text("INFO serving on :30000\nERROR CUDA out of memory\n")
    (logs / "router.log").write_text("router up\n")
    with open(logs / "core.dump", "wb") as handle:
        handle.truncate(8 * 1024**3)  # sparse: far longer to copy than the test waits
    playbook = tmp_path / "collect.yaml"
    playbook.write_text(
        "name: collect\nsteps:\n"
        "  - id: before\n    run: echo ready\n"
        f"  - id: logs\n    fetch:\n      src: [{logs}/serve.log, {logs}/router.log, {logs}/core.dump]\n      dest: host\n"
        "  - id: after\n    run: echo after\n"
    )
    out = tmp_path / "runs"
    said, code = run_until_host_down_in_copy(playbook, "gpu31", client, dying, out, "core.dump")
    assert code == 3, said
    assert "Traceback" not in said, said
    run_dir, record = load_run(out)
    step = by_id(record, "gpu31")["logs"]
    assert step["status"] == "error", json.dumps(step)
    assert step["message"] == f"gpu31: SSH connection lost while copying {logs}/core.dump", json.dumps(step)
    # The two logs copied whole are the step's artifacts, as on disk; the cut dump is not kept.
    assert step["artifacts"] == ["artifacts/gpu31/host/serve.log", "artifacts/gpu31/host/router.log"], json.dumps(step)
    assert (run_dir / step["artifacts"][0]).read_text() == (logs / "serve.log").read_text()
    assert (run_dir / step["artifacts"][1]).read_text() == "router up\n"
    assert not list((run_dir / "artifacts" / "gpu31").glob("**/core.dump*"))
    # The step's time runs from its start to the break, not from the break.
    assert (_at(step["finished_at"]) - _at(step["started_at"])).total_seconds() >= 0.3, json.dumps(step)
    assert step["duration_s"] >= 0.3, json.dumps(step)
    assert [s["id"] for s in record["steps"]] == ["before", "logs"], said


def run_until_host_down_in_copy(playbook: Path, host: str, client: ClientSetup, server: SshServer, out: Path,
                                copying: str) -> tuple[str, int]:
    """`spec-debug run` of playbook on host, whose sshd (listener and sessions) is killed
    once the file named `copying` has begun to arrive: what the run said, and its exit code."""
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", host, "-F", str(client.config),
         "--batch", "--out", str(out), "--artifact-limit", "16G"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"},
    )
    try:
        deadline = time.monotonic() + 30
        while not any(copying in p.name for p in out.glob(f"*/artifacts/{host}/**/*")):
            assert time.monotonic() < deadline and process.poll() is None, f"the copy of {copying} never started"
            time.sleep(0.05)
        time.sleep(0.3)
        server.stop()  # the host goes down in the middle of the copy
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
    return stdout + stderr, process.returncode
