"""Ctrl-C in a fleet run with --forks: the console's line for a host still queued read

    host h4 aborted before its first step: interrupted (Ctrl-C); not started: the run was stopped before this host's turn

saying three times over that the host never ran. It now says it once, with the reason; a host
stopped while it connected (it had begun) keeps its own words."""

from __future__ import annotations

import io

from rich.console import Console

from spec_debug.cli_progress import ConsoleReporter
from spec_debug.record import HostRecord
from spec_debug.runner.engine import NOT_STARTED


def _lines(*hosts: HostRecord) -> list[str]:
    stderr = io.StringIO()
    reporter = ConsoleReporter(Console(file=stderr, emoji=False, width=300), spinner=False)
    for host in hosts:
        reporter.host_finished(host)
    return stderr.getvalue().splitlines()


def test_a_host_that_never_started_is_said_once_to_be_not_started() -> None:
    # As engine.py's _run_host records it: no started_at, the reason and NOT_STARTED.
    queued = HostRecord(name="h4", transport="local", status="aborted", error=f"interrupted (Ctrl-C); {NOT_STARTED}")
    assert _lines(queued) == ["host h4 not started: interrupted (Ctrl-C) before its turn"]


def test_a_host_stopped_while_it_connected_keeps_its_words() -> None:
    connecting = HostRecord(name="h0", transport="ssh", status="aborted", error="interrupted (Ctrl-C)",
                            started_at="2026-12-06T23:00:00Z")
    assert _lines(connecting) == ["host h0 aborted before its first step: interrupted (Ctrl-C)"]


def test_a_host_quit_before_its_turn_in_step_through_mode() -> None:
    queued = HostRecord(name="b", transport="local", status="aborted",
                        error=f"quit in step-through mode; {NOT_STARTED}")
    assert _lines(queued) == ["host b not started: quit in step-through mode before its turn"]
