"""A full disk met by a write after a host's last step keeps the run's verdict, whichever
write meets it (spec_debug/runner/engine.py, _saved_after_steps).

Before: the last step's own write aborted the run (record "aborted", exit 3 with every step
run and passed), while the host's end write failing was lost silently in the host's thread
(the console never showed the host's end). Now neither stops anything: the run ends as its
steps say, and the final write, cut to fit, says on stderr that the disk was full (the CLI's
error line, as test_hardening10_full_disk_record pins for a real tmpfs). A write failing while
steps remain still stops the run (test_hardening10: 'aborted' mid-run).
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

import spec_debug.runner.engine as engine
from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.reporter import Reporter
from spec_debug.store import RecordWriteError, RunStore, write_atomic

PLAYBOOK = "name: two\nsteps:\n  - id: first\n    run: echo one\n  - id: last\n    run: echo two\n"


class _Ends(Reporter):
    def __init__(self) -> None:
        self.hosts: list[str] = []

    def host_finished(self, host) -> None:  # type: ignore[no-untyped-def]
        self.hosts.append(host.status)


class _FullAfter(RunStore):
    """A run folder whose disk is full for whole records that match `full`; the cut record
    of the run's end (save_cut) fits, as on a real disk with a few KiB left."""

    full: staticmethod

    def save_json(self, payload: str) -> None:
        if type(self).full(json.loads(payload)):
            raise RecordWriteError(f"cannot write {self.run_dir / 'run.json'}: [Errno {errno.ENOSPC}] No space left on device",
                                   out_of_space=True)
        super().save_json(payload)

    def save_cut(self, payload: str, why: str) -> None:
        from spec_debug.store import compact_record

        write_atomic(self.run_dir / "run.json", compact_record(payload, why))


def _run(tmp_path: Path, full, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, _Ends, RecordWriteError | None]:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(engine, "SAVE_INTERVAL_S", 0.0)  # every write is made, none deferred
    monkeypatch.setattr(engine, "SAVE_COST_RATIO", 0)
    (tmp_path / "two.yaml").write_text(PLAYBOOK)
    loaded = load_playbook(tmp_path / "two.yaml")
    store_class = type("Store", (_FullAfter,), {"full": staticmethod(full)})
    store = store_class.create(tmp_path / "runs", "two")
    ends = _Ends()
    raised = None
    try:
        Run(loaded, [HostTarget(name="local", connect=LocalTransport)], store, {}, RunOptions(reporter=ends)).execute()
    except RecordWriteError as exc:
        raised = exc
    return json.loads((store.run_dir / "run.json").read_text()), ends, raised


def test_the_last_steps_write_failing_keeps_the_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record, ends, raised = _run(tmp_path, lambda r: any(s["id"] == "last" for s in r["steps"]), monkeypatch)
    assert record["status"] == "passed", (record["status"], record["abort_reason"])
    assert [s["status"] for s in record["steps"]] == ["passed", "passed"]
    assert ends.hosts == ["passed"]
    assert raised is not None and raised.out_of_space and "in full: " in raised.message and "No space left on device" in raised.message


def test_the_hosts_end_write_failing_is_not_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record, ends, raised = _run(tmp_path, lambda r: r["hosts"][0]["finished_at"] is not None, monkeypatch)
    assert ends.hosts == ["passed"], "the host's end was never reported"
    assert record["status"] == "passed" and record["hosts"][0]["status"] == "passed"
    assert raised is not None and "in full: " in raised.message and "No space left on device" in raised.message


def test_a_write_failing_while_steps_remain_still_stops_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record, ends, raised = _run(tmp_path, lambda r: any(s["id"] == "first" for s in r["steps"]), monkeypatch)
    assert record["status"] == "aborted" and [s["id"] for s in record["steps"]] == ["first"]
    assert raised is not None and raised.out_of_space
