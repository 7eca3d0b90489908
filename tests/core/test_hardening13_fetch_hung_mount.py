"""A fetch from a hung mount ends: the step says the file system hangs, and the run goes on.

On a dead NFS server or FUSE mount every file access waits in the kernel (state D) for good.
A local fetch read the file in the host's own thread: the run hung with the mount, and Ctrl-C
or SIGTERM could not end it. A fetch pattern's listing timed out after 60 s and said "no file
on the host matches this pattern", sending the reader to check the path. The hang here is
real: a FUSE mount whose server never answers (tests/core/hung_mount.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import only_run
from tests.core.test_hardening12_unkillable_step import HUNG_MOUNT, pytestmark, stop_when_stuck  # noqa: F401 - needs unshare and /dev/fuse


# How long the mount hangs: a command still running then gets rc null. It counts the CLI's own
# start (seconds on a loaded machine) and the 5 s reap wait after a kill (local._REAP_AFTER_KILL_S):
# far above those, and below every bad path (a hang for good, the 60 s listing timeout of old,
# the 120 s copy stall limit). A `seconds < 15` check here failed under load for no fault.
HUNG_LIMIT_S = 50


def in_hung_mount(mount, command, cwd, stuck=()):
    proc = subprocess.run(
        ["unshare", "-rm", sys.executable, str(HUNG_MOUNT), str(mount), "--limit", str(HUNG_LIMIT_S), *stuck, "--", *command],
        capture_output=True, text=True, timeout=HUNG_LIMIT_S + 60, cwd=cwd,
    )
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_fetch_pattern_on_a_hung_mount_times_out_and_says_so(tmp_path, write_playbook):
    mount = tmp_path / "nfs"
    mount.mkdir()
    playbook = write_playbook(
        f"""
name: grab_logs
steps:
  - id: logs
    timeout: 1
    fetch: {{src: "{mount}/*.log"}}
  - id: after
    run: echo next step ran
"""
    )
    out = tmp_path / "runs"
    cli = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)]
    proc, ended = in_hung_mount(mount, cli, tmp_path)
    assert ended["rc"] is not None, f"the run hung with the mount: {proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    logs, after = record["steps"]
    # Recorded as timed out: the step's timeout bounds the whole fetch (test_hardening18_fetch_timeout*).
    assert logs["status"] == "timeout" and after["status"] == "passed"
    assert "listing the files this pattern names took over 1 s (a hung NFS or FUSE mount?)" in logs["message"], logs["message"]
    assert "no file on the host matches" not in logs["message"]


def test_a_local_copy_from_a_hung_mount_is_given_up(tmp_path):
    # In-process, with the stall limit at 1 s (120 s in a run, as for SFTP copies).
    mount = tmp_path / "nfs"
    mount.mkdir()
    script = (
        "import time\n"
        "from pathlib import Path\n"
        "import spec_debug.runner.local as local\n"
        "local._COPY_STALL_S = 1.0\n"
        "started = time.monotonic()\n"
        "try:\n"
        f"    local.LocalTransport().get('{mount}/config.json', Path('{tmp_path}/back/config.json'))\n"
        "except TimeoutError as exc:\n"
        "    print(f'gave up after {time.monotonic() - started:.0f} s:', exc)\n"
    )
    proc, ended = in_hung_mount(mount, [sys.executable, "-c", script], tmp_path)
    assert ended["rc"] == 0, proc.stdout + proc.stderr[-2000:]
    said = proc.stdout.splitlines()[0]
    # The 1 s stall limit set above, not the 120 s one of a run.
    assert said.startswith("gave up after ") and int(said.split()[3]) <= 10, proc.stdout
    assert said.endswith("s: no data read from it for 1 s: its file system hangs (a dead NFS server or FUSE mount?); "
                         "the copy was given up and is left waiting in the kernel"), said
    assert not (tmp_path / "back" / "config.json").exists()


def test_stopping_a_run_on_a_fetch_stuck_in_the_kernel_ends_it(tmp_path, write_playbook):
    mount = tmp_path / "nfs"
    mount.mkdir()
    playbook = write_playbook(f"name: grab\nsteps:\n  - id: config\n    fetch: {{src: {mount}/config.json}}\n")
    out = tmp_path / "runs"
    cli = f"{sys.executable} -m spec_debug run {playbook} --host local --out {out}"
    marker = tmp_path / "stuck"
    proc, ended = in_hung_mount(mount, ["bash", "-c", stop_when_stuck(cli, marker)], tmp_path, stuck=("--stuck", str(marker)))
    assert ended["rc"] is not None, f"the stopped run hung on the copy: {proc.stderr[-2000:]}"
    assert "cli-exit=3" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    assert record["status"] == "aborted"
    (step,) = record["steps"]
    # The stop said once (hardening77): was "...; <path>: copy of <path> stopped: the run was interrupted"
    assert (step["status"], step["message"]) == ("error", f"interrupted: terminated (SIGTERM); copy of {mount}/config.json stopped")
