"""Codex puts ``<image name=[Image #1] path="...">`` and ``</image>`` around a pasted image (openai/codex
``codex-rs/protocol/src/models.rs`` ``local_image_content_items``), and its own reading of a user
message skips such a text part only next to the image it wraps (``event_mapping.rs``
``parse_user_message``: an open tag before an ``input_image``, a close tag after one). A prompt typed
as ``<image>`` or ``</audio>``, no image beside it, is words: it was dropped (an empty prompt)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

PNG = "data:image/png;base64,iVBORw0KGgo="


def _rollout(tmp_path, messages: list[list[dict]]):
    path = tmp_path / "rollout-2026-03-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c.jsonl"
    lines = [{"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c", "cwd": "/w", "cli_version": "0.130.0"}}]
    lines += [{"timestamp": f"2026-03-01T10:00:0{i + 1}.000Z", "type": "response_item",
               "payload": {"type": "message", "role": "user", "content": parts}} for i, parts in enumerate(messages)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return analyze_path(path).to_json()


def _text(text: str) -> dict:
    return {"type": "input_text", "text": text}


def test_a_tag_typed_with_no_image_beside_it_is_the_prompt(tmp_path):
    doc = _rollout(tmp_path, [[_text("<image>")], [_text("</audio>")],
                              [_text('<image name=[Image #1] path="/tmp/a.png">'), _text("why is this plot flat?")]])
    assert [p["text"] for p in doc["prompts"]] == [
        "<image>", "</audio>", '<image name=[Image #1] path="/tmp/a.png">\nwhy is this plot flat?']


def test_tags_next_to_their_image_are_still_its_label(tmp_path):
    image = {"type": "input_image", "image_url": PNG}
    doc = _rollout(tmp_path, [
        [_text('<image name=[Image #1] path="/tmp/say "hi".png">'), image, _text("</image>")],
        [_text("<image>"), image, _text("</image>"), _text("</image>")],
    ])
    assert [p["text"] for p in doc["prompts"]] == ["[Image #1]", "</image>"]


def test_a_label_the_words_already_hold_is_not_said_twice(tmp_path):
    # The TUI sends the placeholder in the text too ("the sent/recorded text is literally '[Image #1]
    # describe this'"); the prompt was '[Image #1]\n[Image #1] Why is ...'
    image = {"type": "input_image", "image_url": PNG}
    tags = [_text('<image name=[Image #1] path="/tmp/a.png">'), image, _text("</image>")]
    doc = _rollout(tmp_path, [[*tags, _text("[Image #1] Why is acceptance flat here?")], [*tags, _text("[Image #1]")],
                              [*tags, _text("compare with [Image #10]")]])
    assert [p["text"] for p in doc["prompts"]] == [
        "[Image #1] Why is acceptance flat here?", "[Image #1]", "[Image #1]\ncompare with [Image #10]"]
