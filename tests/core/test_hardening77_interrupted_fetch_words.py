"""A fetch step the run's stop (Ctrl-C, a CI job's SIGTERM) cut in the middle of a copy said the
path twice, and each source after it as a copy stopped, although none of them was begun:

    interrupted: Ctrl-C; /logs/server.log: copy of /logs/server.log stopped: the run was
    interrupted; /logs/a.json: copy of /logs/a.json stopped: the run was interrupted; ...

It now says the copy in progress was stopped, once, and which files the stop kept it from
reaching, a pattern after it included (the step's `fetch_not_reached` fact lists them, as at a
timeout):

    interrupted: Ctrl-C; copy of /logs/server.log stopped; not reached: /logs/a.json, /logs/*.json

Over SSH: tests/ssh/test_hardening77_ssh_interrupted_fetch_words.py."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.reporter import Reporter
from spec_debug.store import RunStore


class StopOnceBytesCame(Reporter):
    """Interrupts the run as the user would: once the fetch's first bytes are on the controller."""

    def __init__(self) -> None:
        self.run: Run | None = None

    def step_started(self, host, step, command) -> None:
        assert self.run is not None
        run = self.run
        artifacts = run.store.run_dir / "artifacts"

        def watch() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if any(p.is_file() and p.stat().st_size > 0 for p in artifacts.rglob("*")):
                    break
                time.sleep(0.05)
            run.interrupt("interrupted (Ctrl-C)")

        threading.Thread(target=watch, daemon=True).start()


def test_a_fetch_stopped_mid_copy_names_the_file_once_and_the_files_not_reached(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    server_log = logs / "server.log"
    os.mkfifo(server_log)  # a log the server keeps writing: its copy never ends on its own
    writer = subprocess.Popen(["sh", "-c", f"while :; do echo 'Decode batch. accept len: 3.1'; sleep 0.05; done > '{server_log}'"])
    (logs / "a.json").write_text("{}\n")
    (logs / "b.json").write_text("{}\n")
    (tmp_path / "p.yaml").write_text(
        f"name: p\nsteps:\n  - id: logs\n    fetch:\n      src: [{server_log}, {logs}/a.json, '{logs}/*.json']\n")
    reporter = StopOnceBytesCame()
    run = Run(load_playbook(tmp_path / "p.yaml"), [HostTarget(name="local", connect=LocalTransport)],
              RunStore.create(tmp_path / "runs", "p"), {}, RunOptions(reporter=reporter))
    reporter.run = run
    try:
        record = run.execute()
    finally:
        writer.kill()
        writer.wait()
    (fetch,) = record.steps
    assert record.status == "aborted" and record.findings == []
    # was "...; {server_log}: copy of {server_log} stopped: the run was interrupted; {logs}/a.json: copy of ..."
    assert (fetch.status, fetch.message) == (
        "error", f"interrupted: Ctrl-C; copy of {server_log} stopped; not reached: {logs}/a.json, {logs}/*.json")
    assert fetch.artifacts == []
    assert fetch.facts["fetch_not_reached"] == [f"{logs}/a.json", f"{logs}/*.json"]
    assert fetch.facts["fetch_timed_out"] is False
