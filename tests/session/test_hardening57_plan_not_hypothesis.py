"""A plan worded with "could/might/may be" is no hypothesis: "I will check whether the draft
could be loaded" asks a check's question and "The build may be slow" forecasts how an action
will go; neither claims a cause of the symptom. Both were open hypotheses, listed under the
postmortem's Open questions as if the agent had suspected them."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from spec_debug.session.reasoning import hypotheses
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text", [
    "I will check whether the draft could be loaded.",
    "I'll verify whether the draft model could be loaded by SGLang.",
    "Let me check if the config might be wrong.",
    "Next, I want to see if it could be the layer ids.",
    "The build may be slow.",
    "The download may be large, so I start it now.",
    "This might be a bit slow, so let me run it in the background.",
])
def test_plans_are_no_hypotheses(text: str) -> None:
    assert hypotheses(text) == []


@pytest.mark.parametrize("text", [
    "The d2t map could be stale.",
    "The draft may be the cause.",
    "It could be that the layer ids are wrong.",
    # a forecast word with its reason is a guess at a cause
    "It might be slow because the draft runs on the CPU.",
    # a check's question next to a guess: the guess stays
    "I will check whether it loads; the d2t map could be stale.",
    "The draft could be stale, so let me check whether the config might be wrong.",
    # the check's question ends at the comma: what follows is the agent's guess
    "Let me check if the config is wrong, since it could be the layer ids.",
])
def test_guesses_stay_hypotheses(text: str) -> None:
    assert hypotheses(text) != []


def test_a_plan_is_no_open_question(tmp_path: Path) -> None:
    w = _Writer("ab570000-0000-4000-8000-000000000057", None, datetime(2026, 12, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 head on h100-7 is slower than without it.")
    w.bash("ssh h100-7 'python -c \"import sglang\"'", "", text="I will check whether the draft could be loaded.")
    w.bash("ssh h100-7 'cd sglang && pip install -e python'", "Successfully installed sglang",
           text="The build may be slow.")
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert a.hypotheses == []
    md = render_postmortem(a, "md")
    assert "could be loaded" not in md and "may be slow" not in md.split("## Open questions", 1)[-1]
