"""An agent that quotes vLLM's per-position acceptance rates and then says the mean in the same
sentence, "Per-position acceptance rates are 0.82, 0.61, 0.40, so the overall rate is 61%", gave
no reading: the list is rightly no overall rate and is cut before the scan, and "the overall
rate" alone names no acceptance. The noun is the list's: it is the session's accept rate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _said(tmp_path: Path, said: str) -> list[tuple]:
    path = tmp_path / "aaaa0000-0000-4000-8000-0000000000e5.jsonl"
    head = {"isSidechain": False, "userType": "external", "cwd": "/root/eagle",
            "sessionId": "aaaa0000-0000-4000-8000-0000000000e5", "version": "2.1.90"}
    path.write_text("\n".join(json.dumps(line) for line in [
        {"type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-06-15T10:00:00.000Z", **head,
         "message": {"role": "user", "content": "How well is the drafter accepted on gpu01?"}},
        {"type": "assistant", "uuid": "u1", "parentUuid": "u0", "timestamp": "2026-06-15T10:00:01.000Z", **head,
         "message": {"id": "m1", "type": "message", "role": "assistant",
                     "content": [{"type": "text", "text": said}]}},
    ]) + "\n")
    return [(m.name, m.value, m.unit) for m in analyze_path(path).metrics]


@pytest.mark.parametrize("said, readings", [
    ("Per-position acceptance rates are 0.82, 0.61, 0.40, so the overall rate is 61%.", [("accept_rate", 61.0, "%")]),
    ("Per-position acceptance rates are 82%, 61%, 40%, average rate 0.61.", [("accept_rate", 0.61, "ratio")]),
    # said with its own noun: read once, by the scan that always read it
    ("Per-position acceptance rate: 0.812, 0.605, 0.433 (overall acceptance rate 0.62)", [("accept_rate", 0.62, "ratio")]),
])
def test_the_mean_after_a_per_position_list_is_the_accept_rate(tmp_path: Path, said: str, readings: list) -> None:
    assert _said(tmp_path, said) == readings


@pytest.mark.parametrize("said", [
    "Per-position acceptance rates are 0.82, 0.61, 0.40.",  # the list alone is no overall rate
    "The overall rate is 61%.",  # no acceptance named anywhere
])
def test_no_mean_said_gives_no_reading(tmp_path: Path, said: str) -> None:
    assert _said(tmp_path, said) == []
