"""Ctrl-C (or SIGTERM) while a step waits for its `until` is no pass.

A step that polls a host until the server is up (`until: "'ready' in stdout"`, retries: 100)
ran its attempt, saw "loading", and waited retry_delay for the next one. The interrupt ended
the wait, and the step was recorded as passed, exit code 0 (its last attempt had no
expectation to fail): the on-call read "passed wait_ready" for a server that never came up.
It is "error: interrupted" now, and says the `until` had not held, over SSH as on the
controller.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup


@pytest.mark.parametrize("host", ["target", "local"])
def test_an_interrupt_while_until_waits_is_not_a_pass(host: str, client: ClientSetup, tmp_path: Path) -> None:
    attempted = tmp_path / "attempted"
    playbook = tmp_path / "wait.yaml"
    playbook.write_text(
        "name: wait\nsteps:\n  - id: wait_ready\n"
        f"    run: echo 'loading'; touch {attempted}\n"
        "    until: \"'ready' in stdout\"\n    retries: 100\n    retry_delay: 600\n"
    )
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", host, "-F", str(client.config), "--batch",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"},
    )
    try:
        # generous: a loaded 2-core CI machine; ends as soon as the first attempt has run
        deadline = time.monotonic() + 120
        while not attempted.exists():
            assert time.monotonic() < deadline and process.poll() is None, "the first attempt never ran"
            time.sleep(0.05)
        # Whether the signal lands as the attempt's shell exits or during the 600 s wait, the
        # step is interrupted before its `until` held: the verdict is the same either way.
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 3, stderr
    assert "Traceback" not in stderr, stderr
    _, record = load_run(out)
    [step] = record["steps"]
    assert step["status"] == "error", step
    assert step["message"].startswith("interrupted: "), step["message"]
    assert record["status"] == "aborted" and record["findings"] == []
    assert "passed wait_ready" not in stderr and "error wait_ready" in stderr, stderr
