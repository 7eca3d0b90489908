"""analyze: a fix that worked only in part confirms no suspect.

"I suspect the --speculative-num-steps 1 flag", a relaunch with 3 steps, then "The fix worked only
partially: 61.2 tok/s against the 90 tok/s baseline." marked the flag confirmed as the cause, and
the postmortem listed it under "What went well" as the hypothesis found true, while the agent said
the opposite: more was wrong. "works"/"worked" followed by "only", "partly", "partially",
"somewhat", "a bit" or "a little" is no outcome; "That worked: 96.8 tok/s" still is.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import outcome
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text", [
    "The fix worked only partially: 61.2 tok/s against the 90 tok/s baseline.",
    "That works a bit better, but acceptance is still low.",
    "This worked partly: accept length 1.4.",
])
def test_a_partial_fix_is_no_outcome(text):
    assert outcome(text) is None


def test_a_whole_fix_still_is_one():
    assert outcome("That worked: 96.8 tok/s.")[0] == "confirmed"


def test_the_suspect_stays_open(tmp_path):
    w = _Writer("53530000-0000-4000-8000-0000000000e9", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 is slower than the 90 tok/s baseline.")
    w.bash("ssh gpu01 'ps -eo args | grep [l]aunch_server'", "python -m sglang.launch_server --speculative-num-steps 1",
           text="I suspect the --speculative-num-steps 1 flag caps the draft.")
    w.bash("ssh gpu01 'python bench.py'", "Output token throughput (tok/s): 61.2",
           text="Relaunched with --speculative-num-steps 3.")
    w.say("The fix worked only partially: 61.2 tok/s against the 90 tok/s baseline.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [h.status for h in analyze_path(path).hypotheses] == ["open"]
