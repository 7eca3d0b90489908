"""analyze: a plan worded with "could be" or "root cause" is no hypothesis.

"The next step could be to check the draft config.", "I might be able to read the log with sudo.",
"To find the root cause, let me look at the server log.", "Let me figure out what the bottleneck is."
were hypotheses: none names a suspect, none is ever confirmed or ruled out, so each stood in the
postmortem's Open questions as a guess left unsettled. A guess stays one ("The draft may be to
blame", "The root cause might be the draft's d2t table", "Found the root cause: ...").
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.reasoning import hypotheses
from tests.session.incident_story import _Writer

PLANS = [
    "The next step could be to check the draft config.",
    "One option could be to upgrade SGLang on gpu01.",
    "I might be able to read the log with sudo.",
    "This could be done with a quick grep of the launch script.",
    "It may be necessary to rebuild the draft.",
    "The fix could be as simple as setting draft_vocab_size.",
    "To find the root cause, let me look at the server log.",
    "Let me check the stack trace for the root cause.",
    "Let me figure out what the bottleneck is.",
]


@pytest.mark.parametrize("plan", PLANS)
def test_a_plan_is_no_hypothesis(plan: str) -> None:
    assert hypotheses(plan) == []


@pytest.mark.parametrize("guess", [
    "The draft may be to blame.",
    "The slowdown may be to do with the layer order.",
    "The root cause might be the draft's d2t table.",
    "I think the root cause is the --speculative-num-steps 1 flag.",
    "The issue is the hidden-state order: SGLang feeds layer 3 first.",
    "That may be why throughput drops.",
])
def test_a_guess_is_still_one(guess: str) -> None:
    assert hypotheses(guess) == [guess]


def test_plans_leave_no_open_question(tmp_path) -> None:
    w = _Writer("53530000-0000-4000-8000-0000000000f1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    for plan in PLANS[:3] + PLANS[6:]:
        w.bash("ssh gpu01 'tail -n 5 /root/sglang_server.log'", "decode batch ok", text=plan)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert a.hypotheses == []
    assert not any("neither confirmed nor ruled out" in q for q in postmortem_view(a)["open_questions"])
