"""A bug of ours inside a host's worker thread must not vanish: the host ends as `error`
with the exception named, the run is not PASSED, and the CLI exit code says a host failed."""

from __future__ import annotations

from pathlib import Path

from spec_debug.cli_run import exit_code_for
from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.store import RunStore

PLAYBOOK = """
name: internal
steps:
  - id: one
    run: echo one
  - id: two
    run: echo two
"""


class _BrokenTransport(LocalTransport):
    """A real local transport whose second command hits an unexpected bug."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def run(self, *args, **kwargs):
        self.calls += 1
        if self.calls == 2:
            raise ZeroDivisionError("division by zero in a transport")
        return super().run(*args, **kwargs)


def test_an_unexpected_exception_in_a_host_is_recorded_as_that_hosts_error(tmp_path: Path):
    path = tmp_path / "internal.yaml"
    path.write_text(PLAYBOOK)
    loaded = load_playbook(path)
    store = RunStore.create(tmp_path / "runs", loaded.playbook.name)
    targets = [HostTarget(name="broken", connect=_BrokenTransport), HostTarget(name="fine", connect=LocalTransport)]
    record = Run(loaded, targets, store, {}, RunOptions()).execute()
    hosts = {h.name: h for h in record.hosts}
    assert hosts["broken"].status == "error"
    assert hosts["broken"].error == "internal error: ZeroDivisionError: division by zero in a transport"
    assert hosts["fine"].status == "passed"
    assert [s.id for s in record.steps if s.host == "broken"] == ["one"]
    assert record.status != "passed" and exit_code_for(record) == 3


def test_a_record_left_running_by_a_killed_controller_exits_3(tmp_path: Path):
    path = tmp_path / "internal.yaml"
    path.write_text(PLAYBOOK)
    loaded = load_playbook(path)
    store = RunStore.create(tmp_path / "runs", loaded.playbook.name)
    record = Run(loaded, [HostTarget(name="fine", connect=LocalTransport)], store, {}, RunOptions()).execute()
    assert exit_code_for(record) == 0
    record.hosts[0].status = "running"  # what run.json holds when the controller was SIGKILLed
    assert exit_code_for(record) == 3
