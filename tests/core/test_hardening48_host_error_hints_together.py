"""Hosts of a fleet that fail together (three hosts behind a bastion that hangs, all timing out
at the same second) finish in their own threads. Each host's error line and its hint line were
printed apart, and another host's error line could fall between them: the log read

    host g1 error: g1: jump host bastion: no SSH handshake ...
    host g4 error: g4: jump host bastion: no SSH handshake ...
      hint: the host accepts TCP but sshd does not answer ...
      hint: ...

with no way to tell which hint fixes which host."""

from __future__ import annotations

import io
import threading
import time

import pytest
from rich.console import Console

import spec_debug.cli_progress as cli_progress
from spec_debug.cli_progress import ConsoleReporter
from spec_debug.record import HostRecord


def test_a_hosts_hint_stays_under_its_error_while_other_hosts_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = io.StringIO()
    reporter = ConsoleReporter(Console(file=stderr, emoji=False, width=200), spinner=False)
    other_printed = threading.Event()
    shown = cli_progress._shown

    def slow_to_show_g1s_hint(text: str) -> str:
        # g1's thread is between its two lines when g2's thread finishes (a loaded controller);
        # 1 s is enough for g2 to print where nothing holds it back.
        if text == "hint for g1":
            other_printed.wait(1.0)
        return shown(text)

    monkeypatch.setattr(cli_progress, "_shown", slow_to_show_g1s_hint)

    def finish(name: str) -> None:
        reporter.host_finished(HostRecord(name=name, transport="ssh", status="error", error=f"{name}: no SSH handshake",
                                          hint=f"hint for {name}"))
        if name == "g2":
            other_printed.set()

    first = threading.Thread(target=finish, args=("g1",))
    first.start()
    while "host g1 error" not in stderr.getvalue():
        time.sleep(0.01)
    second = threading.Thread(target=finish, args=("g2",))
    second.start()
    first.join(10)
    second.join(10)
    assert stderr.getvalue().splitlines() == [
        "host g1 error: g1: no SSH handshake", "  hint: hint for g1",
        "host g2 error: g2: no SSH handshake", "  hint: hint for g2",
    ]
