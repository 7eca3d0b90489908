"""`spec-debug explain validation accuracy` said "spec-debug drafter eval reports full_accuracy
per step with speculators' forward, with the reference's and the engine's semantics side by
side". The command runs one semantics a call (its --semantics option, default reference): a
newcomer who ran it as told saw one column set and no comparison. The side-by-side run is
perf_regression's drafter_eval step (two runs of the probe, SD403)."""

from __future__ import annotations

import typer

from spec_debug.cli import app
from spec_debug.playbook.loader import load_playbook
from tests.conftest import run_cli


def test_the_concept_says_where_the_side_by_side_run_is() -> None:
    text = run_cli("explain", "validation accuracy").stdout
    bullet = " ".join(text.split("## In the engines", 1)[1].split("## What goes wrong", 1)[0].split())
    assert "one semantics a call" in bullet
    assert "perf_regression's drafter_eval step runs the reference's and the engine's side by side" in bullet


def test_what_the_sentence_rests_on() -> None:
    drafter = typer.main.get_command(app).commands["drafter"].commands["eval"]
    [semantics] = [p for p in drafter.params if p.name == "semantics"]
    assert semantics.default == "reference" and not semantics.multiple
    step = next(s for s in load_playbook("perf_regression").playbook.steps if s.id == "drafter_eval")
    assert "SD403" in run_cli("explain", "drafter_eval").stdout and step.probe
