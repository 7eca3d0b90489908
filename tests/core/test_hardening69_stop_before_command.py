"""Ctrl-C just before a step's command began on a local host (while its command was rendered,
its probe bundle copied, its line shown): the interrupt found no process to kill, and the
command then started and ran to its end, a 30-second step for 30 seconds, a benchmark for as
long as it takes, the stop unheeded. ssh.py's run() refuses a command once interrupted; the
local transport now does the same, and kills a process whose start the interrupt raced.

The stop arrives from the reporter's step_started hook, which makes the race deterministic."""

from __future__ import annotations

import time
from pathlib import Path

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.reporter import Reporter
from spec_debug.store import RunStore


class _StopWhenStarted(Reporter):
    def __init__(self, step_id: str) -> None:
        self.step_id = step_id
        self.run: Run | None = None

    def step_started(self, host, step, command) -> None:
        if step.id == self.step_id and self.run is not None:
            self.run.interrupt("interrupted (Ctrl-C)")


def test_a_step_whose_command_had_not_begun_when_the_run_was_stopped_does_not_run(tmp_path: Path):
    marker = tmp_path / "ran"
    (tmp_path / "p.yaml").write_text(
        f"name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: two\n    run: touch {marker}; sleep 30\n")
    loaded = load_playbook(tmp_path / "p.yaml")
    reporter = _StopWhenStarted("two")
    run = Run(loaded, [HostTarget(name="local", connect=LocalTransport)], RunStore.create(tmp_path / "runs", "p"), {},
              RunOptions(reporter=reporter))
    reporter.run = run
    began = time.monotonic()
    record = run.execute()
    assert time.monotonic() - began < 20  # was 30 s: the whole sleep
    assert not marker.exists()  # the command never began
    one, two = record.steps
    assert one.status == "passed"
    assert (two.status, two.message) == ("error", "interrupted: Ctrl-C")  # was ("passed", None)
    assert (record.status, record.hosts[0].status) == ("aborted", "aborted")


def test_the_local_transport_runs_nothing_once_interrupted(tmp_path: Path):
    transport = LocalTransport()
    transport.interrupt()
    marker = tmp_path / "ran"
    began = time.monotonic()
    outcome = transport.run(f"touch {marker}; sleep 30", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
    assert time.monotonic() - began < 5
    assert (outcome.exit_code, outcome.timed_out) == (None, False)
    assert not marker.exists()
