"""The console spinner gives the terminal up while a passphrase prompt owns it: rich redraws
the status line over the prompt otherwise, and the run looks stuck at "starting…"."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from spec_debug.cli_progress import ConsoleReporter


def test_the_spinner_stops_for_a_prompt_and_comes_back_after_it():
    console = Console(file=io.StringIO(), force_terminal=True)
    reporter = ConsoleReporter(console)
    record = SimpleNamespace(hosts=["gpu01"], run_id="r", playbook=SimpleNamespace(name="perf_regression"))
    reporter.run_started(record)
    status = reporter._status
    assert status is not None and status._live.is_started
    try:
        with reporter.paused():
            assert not status._live.is_started
        assert status._live.is_started
    finally:
        status.stop()


def test_pausing_without_a_spinner_is_harmless():
    reporter = ConsoleReporter(Console(file=io.StringIO()), spinner=False)
    with reporter.paused():
        pass
    assert reporter._status is None
