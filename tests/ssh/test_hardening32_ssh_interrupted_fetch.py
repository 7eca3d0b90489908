"""Ctrl-C while a fetch step copies a large file (a checkpoint, a core dump): the copy stops
as it should, but the step was reported as warning SD003 ("A step could not run or its output
could not be read") and the run as ABORTED with 1 warning, a finding against the host for
what the user did. A `run:` step cut by the interrupt has no finding (engine._run_step: its
failure says nothing about the host); the fetch step now says "interrupted" the same way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup


def test_ctrl_c_during_a_fetch_is_no_finding_against_the_host(client: ClientSetup, tmp_path: Path) -> None:
    big = tmp_path / "checkpoint.bin"
    with open(big, "wb") as handle:
        handle.truncate(8 * 1024**3)  # sparse: no disk used, and far longer to copy than the test waits
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(f"name: fetch\ndescription: d\nsteps:\n  - id: grab\n    title: grab\n    why: w\n"
                        f"    fetch:\n      src: {big}\n      dest: ckpt\n")
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "target", "-F", str(client.config), "--batch",
         "--out", str(out), "--artifact-limit", "16G"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"},
    )
    try:
        # generous: on a loaded 2-core CI machine the CLI's start, login and first SFTP read once
        # took over 60 s; the wait ends as soon as the first bytes land
        deadline = time.monotonic() + 180
        while not any(p.is_file() and p.stat().st_size > 0 for p in out.glob("*/artifacts/**/*")):
            assert time.monotonic() < deadline and process.poll() is None, "the copy never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert code == 3
    _, record = load_run(out)
    [step] = record["steps"]
    assert record["status"] == "aborted"
    assert step["status"] == "error" and step["message"].startswith("interrupted"), step
    assert record["findings"] == [], record["findings"]
