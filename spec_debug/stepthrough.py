"""`spec-debug run ... --step`: walk a newcomer through a playbook, one step at a time.

Before each step: its title, why it matters, and the exact command. Then run / skip / quit.
After it: the result and any finding in plain words. Quitting leaves a valid run record.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.runner.reporter import StepGate

_CHOICES = {"r": "run", "run": "run", "": "run", "s": "skip", "skip": "skip", "q": "quit", "quit": "quit"}


class TerminalGate(StepGate):
    def __init__(self, console: Console, stdin=None) -> None:
        self.console = console
        self.stdin = stdin or sys.stdin

    def before_step(self, host: str, step: Step, command: str | None) -> str:
        body = []
        if step.why:
            body.append(f"[bold]Why:[/] {escape(step.why.strip())}")
        if command:
            body.append(f"[bold]Command on {escape(host)}:[/]\n  {escape(command)}")
        elif step.fetch is not None:
            body.append(f"[bold]Fetch from {escape(host)}:[/] {escape(', '.join(step.fetch.sources()))}")
        self.console.print(Panel("\n\n".join(body) or "(no description)", title=f"{step.id}: {escape(step.title or '')}", expand=False))
        while True:
            self.console.print("[bold]run[/] (r, Enter) / [bold]skip[/] (s) / [bold]quit[/] (q)? ", end="")
            line = self.stdin.readline()
            if line == "":  # end of input: treat as quit, the record stays valid
                return "quit"
            choice = _CHOICES.get(line.strip().lower())
            if choice:
                return choice
            self.console.print(f"please answer r, s or q (got {line.strip()!r})")

    def after_step(self, host: str, step: Step, result: StepRecord, findings: list[Finding]) -> None:
        words = {
            "passed": "[green]passed[/]: everything this step checks looks healthy.",
            "failed": "[red]failed[/]: an expectation did not hold.",
            "error": "[red]could not run[/]",
            "timeout": "[red]timed out[/] and was stopped.",
            "skipped": "[blue]skipped[/].",
        }[result.status]
        if result.message and result.status != "passed":
            words += f" {escape(result.message)}"
        self.console.print(f"→ {step.id} {words}")
        for finding in findings:
            self.console.print(f"  [bold]{finding.code}[/] ({finding.severity}): {escape(finding.title)}")
            if finding.remediation:
                self.console.print(f"    what to do: {escape(finding.remediation)}")
