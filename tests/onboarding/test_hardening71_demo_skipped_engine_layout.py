"""`demo --step`, answering s at the engine step: hidden_layout said "passed: everything this step
checks looks healthy" while its SD402 (the served layout is not the one the drafter fits) was gone:
with no engine, no capture convention names the served layers, so the layout and the embedding
slot were never compared, and nothing said so. It now says what it could not check (SD004), as
configs and reference_forward do; a run that knows the engine still gives SD402."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.demo import demo_command

LAYOUT_NOTE = ("  SD004 (info): not checked on this host: engine unknown: the layouts were ranked, but the "
               "served layout was not compared with the one the drafter fits, nor its embedding slot checked "
               "(you skipped engine, which finds the engine this step reads)")


def _walk(tmp_path: Path, monkeypatch, answers: str) -> list[str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    out = io.StringIO()
    demo_command(False, tmp_path / "runs", Console(file=out, width=400, color_system=None), step=True)
    said = out.getvalue()
    return said.split("→ hidden_layout", 1)[1].split("run (r, Enter)", 1)[0].splitlines()


def test_skipped_engine_layout_says_what_it_could_not_check(tmp_path: Path, monkeypatch):
    # launch_flags, engine skipped, configs, vocab, hidden_layout; skip the rest
    walk = _walk(tmp_path, monkeypatch, "r\ns\nr\nr\nr\ns\ns\ns\n")
    assert walk[0] == " ran, but not everything was checked:", walk  # round 73: was "passed; notes:"
    assert LAYOUT_NOTE in walk, walk
    assert not any("SD402" in line for line in walk), walk


def test_engine_run_still_gives_sd402_and_no_note(tmp_path: Path, monkeypatch):
    walk = _walk(tmp_path, monkeypatch, "r\nr\nr\nr\nr\ns\ns\ns\n")
    assert walk[0] == " passed; notes:", walk
    assert any(line.startswith("  SD402 (info):") for line in walk), walk
    assert not any("SD004" in line for line in walk), walk
