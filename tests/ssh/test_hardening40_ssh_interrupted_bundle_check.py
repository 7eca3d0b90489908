"""Ctrl-C while a probe step checks or uploads the probe bundle is no finding against the host.

A probe step first makes sure the host has the bundle (probes/bundle.py: `test -s` and
sha256sum of ~/.cache/spec-debug/...pyz, then an upload). On a host whose home hangs (a
stalled NFS mount) the on-call presses Ctrl-C there: the check was killed, the upload then
refused ("file copy not started: the run was interrupted"), and the step was recorded as
that error with SD003, "A step could not run or its output could not be read", a warning
against the host for what the user did, its message without the "interrupted: " that
readers of run.json tell a killed step by. As a `run:` or `fetch:` step cut by the interrupt,
it is now "error: interrupted: ..." with no finding.

The host is real: an sshd whose sessions read an rc file (BASH_ENV) that makes the check
wait, as a hung home would, and says when it started.
"""

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


def test_ctrl_c_during_the_bundle_check_is_an_interruption(client: ClientSetup, rc_host: Path, tmp_path: Path) -> None:
    checking = tmp_path / "checking"
    # `test` is the check's first word (bundle._whole_copy_test); a function of that name
    # runs in its place, and waits as `test -s` on a hung mount does.
    rc_host.write_text(f"test() {{ : > '{checking}'; sleep 300; }}\n")
    playbook = tmp_path / "probe.yaml"
    playbook.write_text("name: probe\nsteps:\n  - id: info\n    probe: host_info\n  - id: after\n    run: echo after\n")
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "rc", "-F", str(client.config), "--batch",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"},
    )
    try:
        deadline = time.monotonic() + 120  # generous: a loaded 2-core CI machine; ends once the check waits
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
    assert "Traceback" not in stderr, stderr
    _, record = load_run(out)
    [step] = record["steps"]
    assert record["status"] == "aborted"
    assert record["findings"] == [], record["findings"]
    assert step["id"] == "info" and step["status"] == "error", step
    assert step["message"].startswith("interrupted: "), step["message"]
    assert "SD003" not in stderr, stderr
