"""`spec-debug run PLAYBOOK --step` told an SD004 note as its title and the generic fix alone:

    SD004 (info): Not checked: --var draft_model=DIR
      what to do: Provide what the title names after "Not checked:" ... and run again.

never what went unchecked nor why (the note's evidence, "draft weights not read: no draft
checkpoint on this host"), which `demo --step` says. The evidence's first line is now said
between the title and the fix, on one line (a multi-line evidence joined, as progress lines are)."""

from __future__ import annotations

import io

from rich.console import Console

from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.stepthrough import TerminalGate


def _said(findings: list[Finding]) -> list[str]:
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, width=200, color_system=None))
    gate.after_step("gpu01", Step(id="configs", probe="configs"),
                    StepRecord(id="configs", host="gpu01", status="passed"), findings)
    return out.getvalue().splitlines()


def test_run_step_says_what_went_unchecked():
    note = Finding(code="SD004", severity="info", title="Not checked: --var draft_model=DIR", host="gpu01",
                   step="configs", evidence=["draft weights not read: no draft checkpoint on this host", "second"],
                   remediation="Provide it and run again.")
    assert _said([note]) == ["→ configs ran, but not everything was checked:",  # round 73: was "passed; notes:"
                             "  SD004 (info): Not checked: --var draft_model=DIR",
                             "    draft weights not read: no draft checkpoint on this host",
                             "    what to do: Provide it and run again."]


def test_multiline_evidence_is_one_line_and_other_codes_unchanged():
    note = Finding(code="SD004", severity="info", title="Not checked: a readable draft config.json", host="gpu01",
                   step="configs", evidence=["config.json:\n  line 3 [x] is not JSON"])
    assert _said([note])[1:] == ["  SD004 (info): Not checked: a readable draft config.json",
                                 "    config.json: line 3 [x] is not JSON"]
    other = Finding(code="SD101", severity="info", title="Fine", host="gpu01", step="configs", evidence=["x"])
    assert _said([other])[1:] == ["  SD101 (info): Fine"]
