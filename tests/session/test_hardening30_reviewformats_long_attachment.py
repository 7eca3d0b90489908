"""A prompt of attachments alone starts no phase (segments.PhaseTracker.boundary), but the phase title
it is told from is the prompt's first 70 characters: a file sent by a long name, or seven pasted
images, was cut ('[file bench_serving_eagle3_…') and no longer read as attachments alone, so it titled
a phase of its own."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

NAME = "bench_serving_eagle3_k4_h100_sglang-0.5.2_2026-03-01T10-00-00.log"
ASK = "Why did acceptance drop after the upgrade?"


def test_an_attachment_with_a_long_name_starts_no_phase(tmp_path):
    path = tmp_path / "chat.jsonl"
    lines = [
        {"role": "user", "content": [{"type": "file", "file": {"filename": NAME,
                                                               "file_data": "data:text/plain;base64,SGk="}}]},
        {"role": "assistant", "content": "It is a bench_serving log."},
        {"role": "user", "content": ASK},
        {"role": "assistant", "content": "Accept length fell from 3.1 to 1.0."},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [f"[file {NAME}]", ASK]
    assert [s["title"] for s in doc["segments"]] == ["Conversation", ASK]  # was a phase '[file bench_serving_…'
