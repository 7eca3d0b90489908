"""A fetch of a glob (`src: /var/log/sglang/*.log`) whose listing the run's stop kept from
running (the transport refuses a command once interrupted: ssh.py's run(), and local.py's)
said "<pattern>: no file on the host matches this pattern": the logs were there, and the
reader of run.json went looking for why they were missing. It now says the pattern was not
listed because the run was interrupted.

The stop arrives from the reporter's step_started hook, which makes the race deterministic."""

from __future__ import annotations

from pathlib import Path

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.reporter import Reporter
from spec_debug.store import RunStore


class _StopWhenStarted(Reporter):
    def __init__(self, step_id: str) -> None:
        self.step_id = step_id
        self.run: Run | None = None

    def step_started(self, host, step, command) -> None:
        if step.id == self.step_id and self.run is not None:
            self.run.interrupt("interrupted (Ctrl-C)")


def test_a_glob_the_stop_kept_from_being_listed_is_not_said_to_match_nothing(tmp_path: Path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "server.log").write_text("CUDA out of memory\n")
    (tmp_path / "p.yaml").write_text(
        f"name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: logs\n    fetch:\n      src: {logs}/*.log\n")
    reporter = _StopWhenStarted("logs")
    run = Run(load_playbook(tmp_path / "p.yaml"), [HostTarget(name="local", connect=LocalTransport)],
              RunStore.create(tmp_path / "runs", "p"), {}, RunOptions(reporter=reporter))
    reporter.run = run
    record = run.execute()
    _, fetch = record.steps
    # was "...: no file on the host matches this pattern"
    assert (fetch.status, fetch.message) == ("error", f"interrupted: Ctrl-C; {logs}/*.log: not listed: the run was interrupted")
    assert fetch.artifacts == []
    assert (record.hosts[0].status, record.hosts[0].error) == ("aborted", "interrupted (Ctrl-C)")
