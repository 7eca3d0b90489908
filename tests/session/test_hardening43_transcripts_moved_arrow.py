"""A change said with its verb, both values and an arrow but no "from" ("accept length went 1.0
-> 2.9", "acceptance rate dropped 70% → 30%") gave no reading at all, while "went from 1.0 to 2.9"
and "accept length 1.0 -> 2.9" gave both: the session's before and after were lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _said(tmp_path: Path, said: str) -> list[tuple]:
    path = tmp_path / "aaaa0000-0000-4000-8000-0000000000e4.jsonl"
    head = {"isSidechain": False, "userType": "external", "cwd": "/root/eagle",
            "sessionId": "aaaa0000-0000-4000-8000-0000000000e4", "version": "2.1.90"}
    path.write_text("\n".join(json.dumps(line) for line in [
        {"type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-06-15T10:00:00.000Z", **head,
         "message": {"role": "user", "content": "Did the aux-layer fix help on gpu01?"}},
        {"type": "assistant", "uuid": "u1", "parentUuid": "u0", "timestamp": "2026-06-15T10:00:01.000Z", **head,
         "message": {"id": "m1", "type": "message", "role": "assistant",
                     "content": [{"type": "text", "text": said}]}},
    ]) + "\n")
    return [(m.name, m.value, m.unit) for m in analyze_path(path).metrics]


@pytest.mark.parametrize("said, readings", [
    ("The accept length went 1.0 -> 2.9 after fixing the aux layers.",
     [("accept_length", 1.0, "tokens"), ("accept_length", 2.9, "tokens")]),
    ("Accept length dropped 3.2 \u2192 1.4 after the upgrade.",
     [("accept_length", 3.2, "tokens"), ("accept_length", 1.4, "tokens")]),
    ("The acceptance rate went 30% -> 70% after the fix.",
     [("accept_rate", 30.0, "%"), ("accept_rate", 70.0, "%")]),
])
def test_a_moved_value_with_an_arrow_gives_both_readings(tmp_path: Path, said: str, readings: list) -> None:
    assert _said(tmp_path, said) == readings


@pytest.mark.parametrize("said", ["The accept length went 2 times higher.", "Acceptance rate dropped 5 points."])
def test_a_verb_with_no_arrow_and_no_value_after_it_stays_unread(tmp_path: Path, said: str) -> None:
    assert _said(tmp_path, said) == []
