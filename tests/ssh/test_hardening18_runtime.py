"""Runtime faults of a real sshd, round 18: what happens to a run when the host goes away, or
goes silent, in the middle of a step that has already printed something.

Each test runs `spec-debug run` end to end against a real OpenSSH sshd on 127.0.0.1 and reads
the exit code, run.json and the console.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

from tests.ssh.faults import stop_when_running
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def load_run(out: Path) -> dict[str, Any]:
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    return json.loads((run_dir / "run.json").read_text())


def steps_of(record: dict[str, Any], host: str) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in record["steps"] if s["host"] == host}


def assert_no_traceback(result: Any) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr


def test_a_host_that_dies_under_a_step_keeps_what_the_step_printed_before(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """The on-call story: a step tails the server while the host falls over (OOM, GPU Xid,
    reboot). The last lines it printed are the evidence; the record kept none of them (stdout
    '' and 0 s for a step that ran and printed), so the report showed a bare "connection lost"."""
    doomed = sshd_factory("h18dies")
    client.trust(doomed)
    client.alias("gpu01", doomed)
    wait = f"7.{os.getpid() % 100:02d}1"  # a sleep only this test runs, to spot on the host
    playbook = tmp_path / "launch.yaml"
    playbook.write_text(
        "name: launch\ndescription: a server launch that takes the host down\nsteps:\n"
        "  - id: env\n    title: env\n    why: runs before the fault\n    run: echo python=ok\n"
        "  - id: launch\n    title: launch the server\n    why: the host dies under it\n"
        "    run: |\n"
        "      echo 'Loading safetensors checkpoint shards: 100% 4/4'\n"
        "      echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' >&2\n"
        f"      sleep {wait}; echo ready\n"
        "    timeout: 60\n"
        "  - id: bench\n    title: bench\n    why: never reached\n    run: echo bench\n"
    )
    dropper = stop_when_running(doomed, ["sleep", wait])
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu01", "-F", str(client.config), "--batch", "--out", str(out))
    dropper.join()
    assert_no_traceback(result)
    assert result.code == 3, result.stderr
    record = load_run(out)
    [host] = record["hosts"]
    assert host["status"] == "error" and "connection lost during command" in host["error"]
    steps = steps_of(record, "gpu01")
    assert steps["env"]["status"] == "passed" and "bench" not in steps
    launch = steps["launch"]
    assert launch["status"] == "error" and "connection lost" in launch["message"]
    assert launch["stdout"] == "Loading safetensors checkpoint shards: 100% 4/4\n"
    assert launch["stderr"] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert launch["duration_s"] > 0 and launch["started_at"] <= launch["finished_at"]
    assert any(f["code"] == "SD005" for f in record["findings"])
