"""A speedup said with a word between the verb and the factor, "the speedup is only 1.1x", gave no
reading, while "the speedup is 1.1x" gave one: the session's own measured factor was lost from
``metrics`` (and from the postmortem's Resolution) because the agent called it small."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _session(tmp_path: Path, said: str) -> Path:
    path = tmp_path / "aaaa0000-0000-4000-8000-0000000000e2.jsonl"
    head = {"isSidechain": False, "userType": "external", "cwd": "/root/eagle",
            "sessionId": "aaaa0000-0000-4000-8000-0000000000e2", "version": "2.1.90"}
    path.write_text("\n".join(json.dumps(line) for line in [
        {"type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-06-15T10:00:00.000Z", **head,
         "message": {"role": "user", "content": "Is EAGLE-3 worth it on gpu01?"}},
        {"type": "assistant", "uuid": "u1", "parentUuid": "u0", "timestamp": "2026-06-15T10:00:01.000Z", **head,
         "message": {"id": "m1", "type": "message", "role": "assistant",
                     "content": [{"type": "text", "text": said}]}},
    ]) + "\n")
    return path


@pytest.mark.parametrize("said, value", [
    ("The speedup is only 1.1x.", 1.1),
    ("Speedup was merely 1.05x on gpu01.", 1.05),
    ("Speedup is now 1.3x after the fix.", 1.3),
    ("Speedup is only 1.1x vs. the 2.5x expected.", 1.1),  # the expected factor stays no reading
])
def test_a_hedged_speedup_is_read(tmp_path: Path, said: str, value: float) -> None:
    a = analyze_path(_session(tmp_path, said))
    assert [(m.name, m.value, m.unit) for m in a.metrics] == [("speedup", value, "x")]


@pytest.mark.parametrize("said", [
    "The speedup is only 1.1x over EAGLE-2.",  # one drafter against another
    "We need the speedup to be at least 2x.",  # wanted, not measured
])
def test_what_was_no_reading_stays_none(tmp_path: Path, said: str) -> None:
    assert analyze_path(_session(tmp_path, said)).metrics == []
