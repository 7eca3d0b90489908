"""A step whose process cannot be killed does not hang the run past its timeout.

`nvidia-smi` on a GPU whose driver stopped answering (Xid 79 "GPU has fallen off the bus") and
`df` or `ls` on a dead NFS mount wait in the kernel (state D): SIGKILL does not end them until
that wait ends. Before: the step's timeout fired, its tree was sent SIGKILL, and the local runner
then waited for the process without a limit: the run hung there for as long as the mount did,
with the timeout's message never written. Now the run waits a few seconds, records the step as
timed out naming the process left behind and why, and goes on to the next step.

The hang is real: a FUSE mount (tests/core/hung_mount.py) whose server reads each request and
never answers it, in a private mount namespace.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.runner.attempt import _shorten  # a message names a command in 80 characters at most
from tests.conftest import only_run

HUNG_MOUNT = Path(__file__).with_name("hung_mount.py")


def _fuse_in_a_namespace() -> bool:
    if not os.path.exists("/dev/fuse"):
        return False
    probe = "import os; os.close(os.open('/dev/fuse', os.O_RDWR))"
    try:
        return subprocess.run(["unshare", "-rm", sys.executable, "-c", probe], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


pytestmark = pytest.mark.skipif(not _fuse_in_a_namespace(), reason="needs unshare -rm and /dev/fuse")


def stop_when_stuck(cli: str, marker: Path) -> str:
    """A bash line that starts the run and sends it SIGTERM once a process is stuck in the mount
    (hung_mount.py --stuck makes MARKER then), waiting at least 60 s. A fixed `sleep 2` stopped the
    run before its step started on a loaded machine (load 7: exit 130, the step never reached)."""
    wait = f"for _ in $(seq 1200); do [ -e {marker} ] && break; sleep 0.05; done"
    return f"{cli} & pid=$!; {wait}; kill -TERM $pid; wait $pid; echo cli-exit=$? >&2"


def test_a_step_stuck_in_the_kernel_times_out_and_the_run_goes_on(tmp_path, write_playbook):
    mount = tmp_path / "nfs"
    mount.mkdir()
    playbook = write_playbook(
        f"""
name: hung_mount
steps:
  - id: disk_usage
    timeout: 1
    retries: 2
    run: df -h {mount}
  - id: after
    run: echo next step ran
"""
    )
    out = tmp_path / "runs"
    cli = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)]
    proc = subprocess.run(
        ["unshare", "-rm", sys.executable, str(HUNG_MOUNT), str(mount), "--limit", "60", "--", *cli],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    ended = json.loads(proc.stdout.strip().splitlines()[-1])
    # The run ended while the mount still hung (it hangs 60 s): not bounded by a clock reading,
    # which a loaded CI machine stretched past 12 s (1 s timeout + the few seconds' reap wait).
    # The limit counts the CLI's own start too, which load stretches: 60 s, not 30.
    assert ended["rc"] is not None, f"the run hung on the unkillable step: {proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    stuck, after = record["steps"]
    assert stuck["status"] == "timeout" and after["status"] == "passed", record["steps"]
    assert after["stdout"] == "next step ran\n"
    assert f"({_shorten(f'df -h {mount}')}, state D) still alive after SIGKILL and left running" in stuck["message"], stuck["message"]
    assert "process tree killed" not in stuck["message"]
    # Another attempt would hang beside the first (and pile up stuck processes): not retried.
    assert stuck["attempts"] == 1 and stuck["message"].endswith("not retried: another attempt would hang beside it")


def test_stopping_a_run_on_a_step_stuck_in_the_kernel_ends_it(tmp_path, write_playbook):
    # Before: SIGTERM (or Ctrl-C) killed the tree, then the runner read the step's pipes until
    # they closed, which the stuck process never does: the run hung with the mount.
    mount = tmp_path / "nfs"
    mount.mkdir()
    playbook = write_playbook(f"name: hung_mount\nsteps:\n  - id: gpu_query\n    run: stat {mount}/x\n")
    out = tmp_path / "runs"
    cli = f"{sys.executable} -m spec_debug run {playbook} --host local --out {out}"
    marker = tmp_path / "stuck"
    stop = stop_when_stuck(cli, marker)
    proc = subprocess.run(
        # The good path is the CLI's start, the step, and the 5 s reap wait after the kill
        # (local._REAP_AFTER_KILL_S): a 15 s limit was under twice that. The bad one never ends.
        ["unshare", "-rm", sys.executable, str(HUNG_MOUNT), str(mount), "--limit", "60", "--stuck", str(marker),
         "--", "bash", "-c", stop],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    ended = json.loads(proc.stdout.strip().splitlines()[-1])
    assert ended["rc"] is not None, f"the stopped run hung on the unkillable step: {proc.stderr[-2000:]}"
    assert "cli-exit=3" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    assert record["status"] == "aborted"
    (step,) = record["steps"]
    assert step["message"].startswith("interrupted: terminated (SIGTERM); pid "), step["message"]
    assert f"({_shorten(f'stat {mount}/x')}, state D) still alive after SIGKILL" in step["message"]
