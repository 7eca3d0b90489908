"""At `run --step` and `demo --step`, a step whose checks could not look (SD004 "Not checked":
no draft config.json, the engine step skipped) was announced "→ configs passed; notes:", the
words of a healthy step with a side remark, while the catalog says of SD004 "these checks did not
run: a clean report with SD004 is a partial diagnosis". Such a step now says "ran, but not
everything was checked:" above its notes; a step with other notes only still "passed; notes:",
and one with a problem still "ran; its checks found a problem:"."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.stepthrough import TerminalGate

NOT_CHECKED = Finding(code="SD004", severity="info", title="Not checked: --var draft_model=DIR", host="gpu01",
                      step="configs", evidence=["draft config not read: no config.json in /srv/draft"],
                      remediation="Provide it and run again.")
LAYOUT_NOTE = Finding(code="SD402", severity="info", title="Served layers as trained", host="gpu01", step="configs")
CAPPED = Finding(code="SD101", severity="error", title="Speculation capped", host="gpu01", step="configs")


def _header(findings: list[Finding], message: str | None = None) -> str:
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, width=200, color_system=None))
    gate.after_step("gpu01", Step(id="configs", probe="configs"),
                    StepRecord(id="configs", host="gpu01", status="passed", message=message), findings)
    return out.getvalue().splitlines()[0]


def test_a_step_that_could_not_check_does_not_say_passed():
    assert _header([NOT_CHECKED]) == "→ configs ran, but not everything was checked:"
    assert _header([LAYOUT_NOTE, NOT_CHECKED]) == "→ configs ran, but not everything was checked:"


def test_its_message_still_follows():
    assert _header([NOT_CHECKED], "read 2 files") == "→ configs ran, but not everything was checked; read 2 files:"


def test_other_headers_are_unchanged():
    assert _header([LAYOUT_NOTE]) == "→ configs passed; notes:"
    assert _header([CAPPED, NOT_CHECKED]) == "→ configs ran; its checks found a problem:"
    assert _header([]) == "→ configs passed: everything this step checks looks healthy."


def test_demo_step_with_engine_skipped(tmp_path: Path, monkeypatch):
    from spec_debug.demo import demo_command

    # launch_flags run, engine skipped, configs run; the rest skipped
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\ns\nr\ns\ns\ns\ns\ns\n"))
    out = io.StringIO()
    demo_command(False, tmp_path / "runs", Console(file=out, width=400, color_system=None), step=True)
    lines = out.getvalue().splitlines()
    at = lines.index("→ configs ran, but not everything was checked:")
    assert lines[at + 1].startswith("  SD004 (info): not checked on this host: engine unknown: "), lines[at + 1]
