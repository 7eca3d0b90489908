"""Ctrl-C while a local fetch copies a file whose bytes keep coming stops the copy.

A local fetch read the file through a child's pipe and looked at the interrupt only when no
byte had come for 0.1 s. A file that never pauses (a large checkpoint on a disk that reads
steadily, a log a server keeps writing into a FIFO) kept being copied after Ctrl-C: the run went
on to the end of the file or the artifact limit, and a FIFO's copy never ended (over SSH the
interrupt closes the copy's channel: tests/ssh/test_hardening32_ssh_interrupted_fetch.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import only_run


def test_ctrl_c_stops_the_copy_of_a_file_that_keeps_coming(tmp_path: Path) -> None:
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    # The writer never stops on its own: a copy that ignores the interrupt never ends.
    writer = subprocess.Popen(["sh", "-c", f"while :; do echo 'decode batch 1 accept_len 3.1'; sleep 0.01; done > '{fifo}'"])
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(f"name: fetch\nsteps:\n  - id: grab\n    fetch:\n      src: {fifo}\n      dest: logs\n")
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--batch",
         "--out", str(out), "--artifact-limit", "16G"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"},
    )
    try:
        deadline = time.monotonic() + 180  # generous: a loaded 2-core CI machine; ends at the first bytes
        while not any(p.is_file() and p.stat().st_size > 0 for p in out.glob("*/artifacts/**/*")):
            assert time.monotonic() < deadline and process.poll() is None, "the copy never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        try:
            _, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("the run went on copying after Ctrl-C")
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        writer.kill()
        writer.wait()
    assert process.returncode == 3, stderr
    assert "Traceback" not in stderr, stderr
    _, record = only_run(out)
    [step] = record["steps"]
    assert record["status"] == "aborted" and record["findings"] == []
    assert step["status"] == "error" and step["message"].startswith("interrupted"), step
