"""A fetch of a named pipe over SSH copies what comes through it, as a local fetch does.

sftp-server seeks to each read's offset (openssh-portable: sftp-server.c, process_read), and a
pipe refuses a seek (ESPIPE): a server log written into a FIFO (`mkfifo server.log; sglang
... > server.log`, or a log shipper's pipe) failed to fetch with a bare "server.log: Failure",
an SD003 warning that said nothing of why, where a local fetch read it with cat. Over SSH it is
now copied over `cat` too, and Ctrl-C still stops a copy that never ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup


def _fetch_playbook(tmp_path: Path, fifo: Path) -> Path:
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(f"name: fetch\nsteps:\n  - id: grab\n    fetch:\n      src: {fifo}\n      dest: logs\n  - id: after\n    run: echo after\n")
    return playbook


def test_a_named_pipe_is_fetched_whole_over_ssh(client: ClientSetup, tmp_path: Path) -> None:
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    # Blocks in its open until the fetch opens the pipe, then writes it all and closes it.
    writer = subprocess.Popen(["sh", "-c", f"i=0; while [ $i -lt 2000 ]; do echo \"decode step $i accept_len 3.1\"; i=$((i+1)); done > '{fifo}'"])
    try:
        out = tmp_path / "runs"
        result = run_cli("run", str(_fetch_playbook(tmp_path, fifo)), "--host", "target", "-F", str(client.config), "--batch",
                         "--out", str(out), timeout=120)
    finally:
        if writer.poll() is None:
            writer.kill()
        writer.wait()
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = load_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "passed", grab
    assert record["findings"] == []
    [artifact] = grab["artifacts"]
    lines = (run_dir / artifact).read_text().splitlines()
    assert lines == [f"decode step {i} accept_len 3.1" for i in range(2000)]
    assert after["status"] == "passed"  # the connection serves the next step


def test_ctrl_c_stops_the_copy_of_a_named_pipe_that_keeps_coming(client: ClientSetup, tmp_path: Path) -> None:
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"while :; do echo 'decode batch accept_len 3.1'; sleep 0.01; done > '{fifo}'"])
    out = tmp_path / "runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(_fetch_playbook(tmp_path, fifo)), "--host", "target", "-F", str(client.config),
         "--batch", "--out", str(out), "--artifact-limit", "16G"],
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
    _, record = load_run(out)
    [step] = record["steps"]
    assert record["status"] == "aborted" and record["findings"] == []
    assert step["status"] == "error" and step["message"].startswith("interrupted"), step
