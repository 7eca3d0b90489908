"""`demo --step`, answering s at the engine step: drafter_eval said "passed: everything this step
checks looks healthy" while its SD403 (the measured cost of the engine's divergence) was gone:
with no engine the probe runs the reference semantics only. It now says what it could not
measure (SD004). drafter_accuracy, whose engine is optional and which has no step finding one,
is unchanged."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.demo import demo_command
from spec_debug.diagnose.steps.eval_step import check
from spec_debug.probes.registry import ProbeContext

EVAL_NOTE = ("  SD004 (info): not checked on this host: engine unknown: the draft was run with the reference "
             "semantics only, not the way the engine runs it, so the cost of its divergences was not measured "
             "(you skipped engine, which finds the engine this step reads)")


def _walk(tmp_path: Path, monkeypatch, answers: str) -> list[str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    out = io.StringIO()
    demo_command(False, tmp_path / "runs", Console(file=out, width=400, color_system=None), step=True)
    said = out.getvalue()
    return said.split("→ drafter_eval", 1)[1].split("run (r, Enter)", 1)[0].splitlines()


def test_skipped_engine_eval_says_what_it_could_not_measure(tmp_path: Path, monkeypatch):
    # launch_flags, engine skipped, configs, vocab, hidden_layout and reference_forward skipped, drafter_eval
    walk = _walk(tmp_path, monkeypatch, "r\ns\nr\ns\ns\ns\nr\ns\n")
    assert walk[0] == " ran, but not everything was checked:", walk  # round 73: was "passed; notes:"
    assert EVAL_NOTE in walk, walk
    assert not any("SD403" in line for line in walk), walk


def test_engine_run_still_gives_sd403_and_no_note(tmp_path: Path, monkeypatch):
    walk = _walk(tmp_path, monkeypatch, "r\nr\nr\ns\ns\ns\nr\ns\n")
    assert any(line.startswith("  SD403 (info):") for line in walk), walk
    assert not any("SD004" in line for line in walk), walk


def _ctx(host_facts: dict) -> ProbeContext:
    facts = {"eval": {"reference": {"full_accuracy": [0.7], "steps": 1}, "engine": None,
                      "claimed_accuracy": "0.7"}}
    return ProbeContext(step_id="drafter_eval", host="h", args={}, facts=facts,
                        host_facts={**host_facts, **facts})


def test_drafter_accuracy_without_engine_has_no_note():
    assert [f.code for f in check(_ctx({}))] == []
    said = check(_ctx({"configs": {"draft_config": None}}))
    assert [(f.code, f.evidence[0][:15]) for f in said] == [("SD004", "engine unknown:")]
