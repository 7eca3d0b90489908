"""A "could be" before a neutral participle is no hypothesis: "The checkpoint could be loaded by
SGLang without errors" and "Both runs could be compared directly" say what was possible, and
"This could be fixed by relaunching" plans; each was an open hypothesis, listed under the
postmortem's Open questions as a suspect. A participle that names a fault ("could be corrupted"),
a wrong thing loaded ("instead", "the wrong d2t") and a guess beside it stay hypotheses."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import hypotheses
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text", [
    "The checkpoint could be loaded by SGLang without errors.",
    "Both runs could be compared directly.",
    "This could be fixed by relaunching the server.",
    "The draft could be successfully loaded on h100-7.",
])
def test_what_was_possible_is_no_hypothesis(text: str) -> None:
    assert hypotheses(text) == []


@pytest.mark.parametrize("text", [
    "The weights could be corrupted.",
    "The old map could be loaded instead of the new one.",
    "The draft could be loaded with the wrong d2t.",
    "The draft could be loaded, but the d2t map could be stale.",
    "The d2t map could be stale.",
])
def test_guesses_stay(text: str) -> None:
    assert hypotheses(text) != []


def test_no_open_question_from_it(tmp_path: Path) -> None:
    w = _Writer("ab570000-0000-4000-8000-000000000058", None, datetime(2026, 12, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 head on h100-7 is slower than without it.")
    w.bash("ssh h100-7 'python load_draft.py'", "loaded 1 layer",
           text="The checkpoint could be loaded by SGLang without errors.")
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert analyze_path(path).hypotheses == []
