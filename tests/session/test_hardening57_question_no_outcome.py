"""A question is no outcome: "Has this been confirmed?" read as a confirmation and "Was that not
the issue?" as a guess ruled out (only _CONFIRMED's "indeed" ruled out its questions), closing the
open guess with the agent's own question."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import outcome
from tests.session.incident_story import _Writer, _bench


@pytest.mark.parametrize("text", ["Has this been confirmed?", "Was that not the issue?",
                                  "So the relaunch did not help?"])
def test_a_question_settles_nothing(text):
    assert outcome(text) is None


@pytest.mark.parametrize("text, kind", [
    ("Did the relaunch make a difference? No change: 61 tok/s.", "ruled_out"),
    ("Confirmed. Is the d2t map next?", "confirmed"),
    ("That fixed it: 96.8 tok/s.", "confirmed"),
])
def test_an_answer_beside_a_question_still_settles(text, kind):
    assert outcome(text)[0] == kind


def test_the_guess_stays_open_after_a_question(tmp_path):
    guess = "I suspect --speculative-num-steps 1 is the bottleneck."
    w = _Writer("57570000-0000-4000-8000-0000000000b2", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 gives 60 tok/s; without speculation 90 tok/s.")
    w.bash("ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000'", _bench(60.0, 1.0))
    w.say(guess)
    w.say("Has this been confirmed?")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [(h.text, h.status) for h in analyze_path(path).hypotheses] == [(guess, "open")]
