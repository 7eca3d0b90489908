"""Ctrl-C while a probe step made sure the host had the probe bundle (a home on a stalled NFS
mount makes its check wait) recorded the step as

    interrupted: Ctrl-C; rc: file copy not started: the run was interrupted

the host's name mid-sentence, the stop said twice, and a "file copy" the user never asked for.
It now says what the stop kept from happening, once: "interrupted: Ctrl-C; the probe did not
start: its bundle was not copied to the host". Same setup as
tests/ssh/test_hardening40_ssh_interrupted_bundle_check.py: a real sshd whose sessions read
an rc file (BASH_ENV) that makes the check wait."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ssh.test_cli_ssh import load_run
from tests.ssh.test_hardening9_login_rc import rc_host  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup


def test_ctrl_c_during_the_bundle_check_says_the_probe_did_not_start(client: ClientSetup, rc_host: Path, tmp_path: Path) -> None:
    checking = tmp_path / "checking"
    rc_host.write_text(f"test() {{ : > '{checking}'; sleep 300; }}\n")  # the check's `test -s` waits
    playbook = tmp_path / "probe.yaml"
    playbook.write_text("name: probe\nsteps:\n  - id: info\n    probe: host_info\n")
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "rc", "-F", str(client.config), "--batch",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"},
    )
    try:
        deadline = time.monotonic() + 120
        while not checking.exists():
            assert time.monotonic() < deadline and process.poll() is None, "the bundle check never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 3, stderr
    _, record = load_run(out)
    [step] = record["steps"]
    # was "interrupted: Ctrl-C; rc: file copy not started: the run was interrupted"
    assert (step["status"], step["message"]) == (
        "error", "interrupted: Ctrl-C; the probe did not start: its bundle was not copied to the host")
    assert record["findings"] == []
