"""Progress callbacks from the runner to whatever displays them (rich in the CLI, nothing in tests)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spec_debug.playbook.models import Step
    from spec_debug.record import Finding, HostRecord, RunRecord, StepRecord


class Reporter:
    """No-op base: override what you display. Methods are called from host worker threads."""

    wants_output_lines = False

    def run_started(self, record: "RunRecord") -> None: ...

    def host_started(self, host: str) -> None: ...

    def step_started(self, host: str, step: "Step", command: str | None) -> None: ...

    def output_line(self, host: str, step_id: str, stream: str, line: str) -> None: ...

    def output_ended(self, host: str, step: "Step") -> None:
        """The step's output is all given (output_line): a display that shows it later shows it
        now, before the step-through gate's words about the step (after_step)."""

    def step_finished(self, host: str, step: "Step", result: "StepRecord", findings: list["Finding"]) -> None: ...

    def host_finished(self, host: "HostRecord") -> None: ...

    def run_finished(self, record: "RunRecord") -> None: ...


class StepGate:
    """Asked before each step in step-through mode: 'run', 'skip' or 'quit'."""

    quit_reason: str | None = None
    """Why the gate answered 'quit' when no one typed q (the run's abort reason); None: q."""

    def before_step(self, host: str, step: "Step", command: str | None) -> str:
        return "run"

    def after_step(self, host: str, step: "Step", result: "StepRecord", findings: list["Finding"]) -> None: ...

    def stop_waiting(self) -> None:
        """The run is stopping (a signal, a record it cannot write): a prompt waiting for an
        answer gives up and answers 'quit'. The runner calls it after it recorded why."""
