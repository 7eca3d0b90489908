"""Live progress for `spec-debug run`, on stderr (stdout stays clean for --json)."""

from __future__ import annotations

import threading
import time

from rich.console import Console
from rich.markup import escape

from spec_debug.playbook.models import Step
from spec_debug.record import Finding, HostRecord, RunRecord, StepRecord
from spec_debug.runner.reporter import Reporter

_STATUS_STYLE = {"passed": "green", "failed": "red", "error": "red", "timeout": "red", "skipped": "blue"}
_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "blue"}


class ConsoleReporter(Reporter):
    def __init__(self, console: Console, *, show_output: bool = False, spinner: bool = True) -> None:
        self.console = console
        self.wants_output_lines = show_output
        self._lock = threading.Lock()
        self._status = None
        self._started = time.monotonic()
        self._multi_host = False
        self._spinner = spinner

    def run_started(self, record: RunRecord) -> None:
        self._multi_host = len(record.hosts) > 1
        self.console.print(
            f"[bold]spec-debug[/] running [cyan]{escape(record.playbook.name)}[/] on "
            f"{len(record.hosts)} host(s) → {escape(record.run_id)}"
        )
        if self.console.is_terminal and self._spinner:
            self._status = self.console.status("starting…")
            self._status.start()

    def _prefix(self, host: str) -> str:
        return f"[magenta]{escape(host)}[/] " if self._multi_host or host != "local" else ""

    def step_started(self, host: str, step: Step, command: str | None) -> None:
        if self._status is not None:
            self._status.update(f"{escape(host)}: {escape(step.id)} — {escape(step.title or '')}")

    def output_line(self, host: str, step_id: str, stream: str, line: str) -> None:
        style = "dim" if stream == "stdout" else "dim red"
        self.console.print(f"{self._prefix(host)}[{style}]{escape(step_id)}| {escape(line)}[/]", highlight=False)

    def step_finished(self, host: str, step: Step, result: StepRecord, findings: list[Finding]) -> None:
        with self._lock:
            style = _STATUS_STYLE.get(result.status, "white")
            note = f" [dim]{escape(result.message)}[/]" if result.message and result.status != "passed" else ""
            self.console.print(
                f"{self._prefix(host)}[{style}]{result.status:>7}[/] {escape(step.id)} "
                f"[dim]({result.duration_s:.2f} s)[/]{note}",
                highlight=False,
            )
            for finding in findings:
                self.console.print(
                    f"{self._prefix(host)}        [{_SEVERITY_STYLE[finding.severity]}]{finding.code}[/] {escape(finding.title)}",
                    highlight=False,
                )

    def host_finished(self, host: HostRecord) -> None:
        if host.status == "error":
            self.console.print(f"[bold red]host {escape(host.name)} error:[/] {escape(host.error or '')}")

    def run_finished(self, record: RunRecord) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None
