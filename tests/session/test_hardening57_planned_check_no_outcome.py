"""A check the agent means to make is no outcome: "I will verify that the fix works", "Let me
confirm that this works", "To confirm the fix works, I will rerun the benchmark" read as
confirmations ("the fix works", "this works" with nothing before them that negates or supposes),
and closed the open guess as confirmed before anything was measured; a benchmark that then
showed no rise left it confirmed."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import outcome
from tests.session.incident_story import _Writer, _bench


@pytest.mark.parametrize("text", [
    "I will verify that the fix works.",
    "Let me confirm that this works.",
    "Now let me check that the fix works on gpu01.",
    "To confirm the fix works, I will rerun the benchmark.",
    "Let me verify that the d2t map is not the issue.",
])
def test_a_planned_check_settles_nothing(text):
    assert outcome(text) is None


@pytest.mark.parametrize("text, kind", [
    ("I verified that the fix works: 96.8 tok/s.", "confirmed"),
    ("I ran the benchmark to verify: the fix works.", "confirmed"),
    ("Let me check the log. That fixed it: 96.8 tok/s.", "confirmed"),
    ("I checked: the d2t map is not the issue.", "ruled_out"),
])
def test_a_check_made_still_settles(text, kind):
    assert outcome(text)[0] == kind


def test_the_guess_stays_open_until_measured(tmp_path):
    guess = "I suspect --speculative-num-steps 1 is the bottleneck."
    w = _Writer("57570000-0000-4000-8000-0000000000b1", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 gives 60 tok/s; without speculation 90 tok/s.")
    w.bash("ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000'", _bench(60.0, 1.0))
    w.say(guess)
    w.bash("ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000'", _bench(61.0, 1.0),
           text="I will verify that the fix works.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [(h.text, h.status) for h in analyze_path(path).hypotheses] == [(guess, "open")]
