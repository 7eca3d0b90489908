"""Ctrl-C just as a host's last step ends: the host ran every step to its end, and was recorded
"aborted" (engine.py `_run_host` asked only whether the run had been stopped by then), so
run.json and the reports' host table said that host was cut short when nothing of it was.
A host is aborted when the stop cut one of its steps or kept one from running.

The stop arrives from the reporter's own hooks (the moment the console shows the step's end,
or its start), which makes the race deterministic."""

from __future__ import annotations

from pathlib import Path

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.reporter import Reporter
from spec_debug.store import RunStore


class _StopAt(Reporter):
    """Stops the run (as a Ctrl-C does: Run.interrupt) when the step `step_id` ends or starts."""

    def __init__(self, step_id: str, when: str) -> None:
        self.step_id, self.when = step_id, when
        self.run: Run | None = None

    def _stop(self, step_id: str, moment: str) -> None:
        if step_id == self.step_id and moment == self.when and self.run is not None:
            self.run.interrupt("interrupted (Ctrl-C)")

    def step_started(self, host, step, command) -> None:
        self._stop(step.id, "start")

    def step_finished(self, host, step, result, findings) -> None:
        self._stop(step.id, "end")


def _run(tmp_path: Path, playbook: str, reporter: _StopAt):
    (tmp_path / "p.yaml").write_text(playbook)
    loaded = load_playbook(tmp_path / "p.yaml")
    store = RunStore.create(tmp_path / "runs", loaded.playbook.name)
    run = Run(loaded, [HostTarget(name="local", connect=LocalTransport)], store, {}, RunOptions(reporter=reporter))
    reporter.run = run
    record = run.execute()
    return record, record.hosts[0]


TWO_STEPS = "name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: two\n    run: echo two\n"


def test_a_host_whose_last_step_ended_as_the_stop_came_is_not_aborted(tmp_path):
    record, host = _run(tmp_path, TWO_STEPS, _StopAt("two", "end"))
    assert [(s.id, s.status) for s in record.steps] == [("one", "passed"), ("two", "passed")]
    assert (host.status, host.error) == ("passed", None)  # was ("aborted", None)
    assert record.abort_reason == "interrupted (Ctrl-C)"  # the run itself was stopped


def test_a_host_whose_last_step_failed_before_the_stop_is_failed(tmp_path):
    playbook = TWO_STEPS.replace("run: echo two", "run: echo two\n    expect:\n      - contains: three")
    record, host = _run(tmp_path, playbook, _StopAt("two", "end"))
    assert [(s.id, s.status) for s in record.steps] == [("one", "passed"), ("two", "failed")]
    assert (host.status, host.error) == ("failed", None)


def test_a_host_stopped_before_its_last_step_is_aborted(tmp_path):
    record, host = _run(tmp_path, TWO_STEPS, _StopAt("one", "end"))
    assert [(s.id, s.status) for s in record.steps] == [("one", "passed")]
    assert (host.status, host.error) == ("aborted", "interrupted (Ctrl-C)")



def test_a_host_whose_last_step_the_stop_cut_is_aborted_with_the_reason(tmp_path):
    playbook = TWO_STEPS.replace("run: echo two", "run: sleep 30")
    record, host = _run(tmp_path, playbook, _StopAt("two", "start"))
    (_, two) = record.steps
    assert (two.status, two.message) == ("error", "interrupted: Ctrl-C")
    # as a host cut in any earlier step reads (its error was None when the cut step was its last)
    assert (host.status, host.error) == ("aborted", "interrupted (Ctrl-C)")
