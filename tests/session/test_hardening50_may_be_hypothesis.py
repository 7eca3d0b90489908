"""A guess worded with "may be" or "it's possible that" is a hypothesis, as one with "could
be" or "might be" is: "I think the head itself may be broken." was no hypothesis, and the
postmortem's Open questions said none was recognised."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from spec_debug.session.reasoning import hypotheses
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text, found", [
    ("Running it again. I think the head itself may be broken.", ["I think the head itself may be broken."]),
    ("It's possible that the d2t map is stale. Checking.", ["It's possible that the d2t map is stale."]),
    ("it is possible that SGLang shifts the layer ids by one", ["it is possible that SGLang shifts the layer ids by one"]),
    ("This may be useful later. Listing the shards.", []),
    ("It may be worth checking the logs first.", []),
    ("Listing the shards.", []),
])
def test_may_be_guesses(text: str, found: list[str]) -> None:
    assert hypotheses(text) == found


def test_an_open_may_be_guess_is_an_open_question(tmp_path: Path) -> None:
    w = _Writer("ab520000-0000-4000-8000-000000000052", None, datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 head on h100-7 is slower than without it.")
    w.bash("ssh h100-7 'python /tmp/test_head.py'", "RuntimeError: mat1 and mat2 shapes cannot be multiplied",
           exit_code=1, text="I think the head itself may be broken.")
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(h.seq, h.status, h.text) for h in a.hypotheses] == [(1, "open", "I think the head itself may be broken.")]
    md = render_postmortem(a, "md")
    assert "I think the head itself may be broken." in md.split("## Open questions", 1)[1]
