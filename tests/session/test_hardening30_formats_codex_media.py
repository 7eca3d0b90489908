"""A Codex CLI that pastes an image into the TUI hands the model the image between two text parts,
``<image name=[Image #1] path="/tmp/grafana.png">`` and ``</image>`` (openai/codex
``codex-rs/protocol/src/models.rs`` ``local_image_content_items``; ``<audio name=[Audio #1] ...>``
around a recording). Those tags were read as words the person typed: a screenshot pasted alone was
the prompt ``<image name=[Image #1] path="/tmp/grafana.png">\\n</image>``, and the session's report.
Now the prompt is the label the TUI shows, and a prompt of labels alone reports nothing."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

PNG = "data:image/png;base64,iVBORw0KGgo="


def _line(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": ts, "type": kind, "payload": payload}


def _pasted(label: int, path: str) -> list[dict]:
    return [{"type": "input_text", "text": f'<image name=[Image #{label}] path="{path}">'},
            {"type": "input_image", "image_url": PNG, "detail": "high"}, {"type": "input_text", "text": "</image>"}]


def test_codex_image_tags_are_read_as_the_labels_the_tui_shows(tmp_path):
    path = tmp_path / "rollout-2026-03-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c.jsonl"
    lines = [
        _line("2026-03-01T10:00:00.000Z", "session_meta", {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c", "cwd": "/w",
                                                           "originator": "codex_cli_rs", "cli_version": "0.130.0"}),
        _line("2026-03-01T10:00:01.000Z", "response_item", {"type": "message", "role": "user",
                                                            "content": _pasted(1, "/tmp/grafana.png")}),
        _line("2026-03-01T10:00:30.000Z", "response_item", {"type": "message", "role": "user", "content": [
            *_pasted(1, "/tmp/a.png"), *_pasted(2, "/tmp/b.png"),
            {"type": "input_text", "text": "Decode throughput on gpu01 dropped with EAGLE-3. Find out why."}]}),
        _line("2026-03-01T10:01:00.000Z", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": '<audio name=[Audio #1] path="/tmp/note.wav">'},
            {"type": "input_audio", "audio_url": "data:audio/wav;base64,UklGRg=="},
            {"type": "input_text", "text": "</audio>"}]}),
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [
        "[Image #1]",  # was '<image name=[Image #1] path="/tmp/grafana.png">\n</image>'
        "[Image #1]\n[Image #2]\nDecode throughput on gpu01 dropped with EAGLE-3. Find out why.",
        "[Audio #1]",
    ]
    assert [s["start_seq"] for s in doc["segments"]] == [0, 2]  # the image alone started no phase
