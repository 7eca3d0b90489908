"""The analyzer's SD501 uses the playbooks' noise band: a reading within 2 % of its baseline is
no slowdown. sglang#26171's humaneval row (259 tok/s with EAGLE-3 vs 260 without, "1.00x")
raised SD501 in a postmortem while `spec-debug run` called the same numbers clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def session(tmp_path: Path, text: str) -> dict:
    lines = [
        {"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": "2026-03-02T10:00:00.000Z",
         "message": {"role": "user", "content": "Is EAGLE-3 paying off on humaneval?"}},
        {"type": "assistant", "uuid": "u2", "parentUuid": "u1", "sessionId": "s", "timestamp": "2026-03-02T10:00:05.000Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    return analyze_path(path).to_json()


@pytest.mark.parametrize("text", [
    "Baseline (no spec): 260 tok/s. With EAGLE3: 259 tok/s.",
    "humaneval: a 0.99x speedup with EAGLE-3, i.e. no change.",
])
def test_a_reading_within_the_noise_band_is_no_slowdown(tmp_path, text):
    out = session(tmp_path, text)
    assert out["metrics"], "the readings are still read"
    assert [f["code"] for f in out["findings"]] == []


@pytest.mark.parametrize("text", [
    "Baseline (no spec): 260 tok/s. With EAGLE3: 250 tok/s.",
    "humaneval: a 0.95x speedup with EAGLE-3.",
])
def test_a_reading_past_the_band_is_sd501(tmp_path, text):
    assert [f["code"] for f in session(tmp_path, text)["findings"]] == ["SD501"]
