"""Titles and lines of the postmortem were cut at a fixed column whatever stood there: the
title of a report "... dropped to 54.8 tok/s from 90 tok/s" ended "from 90 t…", a phase title
"... generatio…", and a cut inside "54.8" left "54.…", another number. Cuts now end after a whole
word, and a number whose unit the cut leaves out goes with it."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.cut_text import cut_at_word
from spec_debug.session.postmortem import render_postmortem
from spec_debug.session.segments import first_sentence
from tests.session.incident_story import _Writer

REPORT = "Our Kimi-K2.5 EAGLE-3 deployment on the 8xH200 node gpu01 dropped to 54.8 tok/s from 90 tok/s. Please find why"


@pytest.mark.parametrize("limit, cut", [
    (90, "Our Kimi-K2.5 EAGLE-3 deployment on the 8xH200 node gpu01 dropped to 54.8 tok/s from…"),  # was "90 t…"
    (73, "Our Kimi-K2.5 EAGLE-3 deployment on the 8xH200 node gpu01 dropped to…"),  # was "54.…"
    (77, "Our Kimi-K2.5 EAGLE-3 deployment on the 8xH200 node gpu01 dropped to…"),  # was "54.8 t…": no "54.8…"
])
def test_a_cut_keeps_a_reading_whole_or_leaves_it_out(limit: int, cut: str) -> None:
    assert cut_at_word(REPORT, limit) == cut
    assert len(cut) <= limit


def test_a_number_before_a_word_that_is_no_unit_stays() -> None:
    assert cut_at_word("accept len 1.02 vs 3.5 expected on this draft", 16) == "accept len 1.02…"


def test_one_long_word_is_still_cut_inside_it() -> None:
    assert cut_at_word("/models/kimi-k2.5-eagle3/checkpoints/step_12000/config.json", 24) == "/models/kimi-k2.5-eagle…"


def test_a_phase_title_ends_after_a_whole_word() -> None:
    text = "Since we moved Llama-3.1-8B to vLLM with our EAGLE-3 draft, generation got slower on gpu02"
    assert first_sentence(text) == "Since we moved Llama-3.1-8B to vLLM with our EAGLE-3 draft…"


def test_the_postmortem_title_keeps_its_readings_whole(tmp_path: Path) -> None:
    sid = "ab370000-0000-4000-8000-000000000005"
    w = _Writer(sid, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(REPORT)
    w.bash("ssh gpu01 nvidia-smi", "NVIDIA-SMI 550.54.15")
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    md = render_postmortem(analyze_path(path), "md")
    assert md.splitlines()[0] == (
        "# Postmortem: Our Kimi-K2.5 EAGLE-3 deployment on the 8xH200 node gpu01 dropped to 54.8 tok/s from…")
