"""Codex's ``view_image`` tool answers "attached local image path" and the image comes after, at the
model's next request, as a user message of that image alone (openai/codex ``codex-rs/core/src/tools/
handlers/view_image.rs``: ``inject_input``, later ``inject_response_items``). Since a prompt of images
alone says ``[Image #1]``, the model's own look at a file was a prompt the person sent (before, an empty
one); it is the tool's: a system line. An image the person pastes later is still their prompt."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

PNG = "data:image/png;base64,iVBORw0KGgo="


def _line(second: int, payload: dict) -> dict:
    return {"timestamp": f"2026-03-01T10:00:{second:02d}.000Z", "type": "response_item", "payload": payload}


def _user(parts: list[dict]) -> dict:
    return {"type": "message", "role": "user", "content": parts}


def test_the_image_view_image_attached_is_no_prompt(tmp_path):
    image = {"type": "input_image", "image_url": PNG}
    pasted = [{"type": "input_text", "text": '<image name=[Image #1] path="/tmp/grafana.png">'}, image,
              {"type": "input_text", "text": "</image>"}]
    lines = [
        {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta",
         "payload": {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d", "cwd": "/w", "cli_version": "0.46.0"}},
        _line(1, _user([{"type": "input_text", "text": "Look at /w/accept_len.png: why is it flat?"}])),
        _line(2, {"type": "function_call", "name": "view_image", "arguments": '{"path":"/w/accept_len.png"}',
                  "call_id": "call_1"}),
        _line(3, {"type": "function_call_output", "call_id": "call_1", "output": "attached local image path"}),
        _line(4, _user([image])),
        _line(5, {"type": "message", "role": "assistant",
                  "content": [{"type": "output_text", "text": "Acceptance length is 1.0 at every step."}]}),
        _line(6, _user(pasted)),
    ]
    path = tmp_path / "rollout-2026-03-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["Look at /w/accept_len.png: why is it flat?", "[Image #1]"]


def test_an_image_pasted_after_the_turn_was_stopped_is_a_prompt(tmp_path):
    image = {"type": "input_image", "image_url": PNG}
    lines = [
        {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta",
         "payload": {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5e", "cwd": "/w", "cli_version": "0.46.0"}},
        _line(1, _user([{"type": "input_text", "text": "Look at /w/accept_len.png"}])),
        _line(2, {"type": "function_call", "name": "view_image", "arguments": '{"path":"/w/accept_len.png"}',
                  "call_id": "call_1"}),
        _line(3, {"type": "function_call_output", "call_id": "call_1", "output": "attached local image path"}),
        {"timestamp": "2026-03-01T10:00:04.000Z", "type": "event_msg",
         "payload": {"type": "turn_aborted", "reason": "interrupted"}},
        _line(5, _user([image])),
    ]
    path = tmp_path / "rollout-2026-03-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5e.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert [p["text"] for p in analyze_path(path).to_json()["prompts"]] == ["Look at /w/accept_len.png", "[Image #1]"]
