"""A prompt made only of an image, a recording or a file had no words, and was read as an empty
prompt: the postmortem's first prompt said nothing of the screenshot of the failing launch the
person pasted. Now it says what was sent, as the tool's own input shows it: ``[Image #1]`` in
Claude Code and Codex, ``[image]``/``[audio]``/``[file NAME]`` for the APIs' parts (openai/openai-python
``types/chat/chat_completion_content_part_param.py``, ``types/responses/response_input_content_param.py``;
anthropics/anthropic-sdk-python ``types/content_block_param.py``)."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

PNG = "data:image/png;base64,iVBORw0KGgo="
REPLY = {"role": "assistant", "content": "The log shows accept len 1.00: the drafter is not loaded."}


def _prompts(path) -> list[str]:
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def _jsonl(path, lines: list[dict]):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("parts, shown", [
    ([{"type": "image_url", "image_url": {"url": PNG, "detail": "auto"}}], "[image]"),
    ([{"type": "input_audio", "input_audio": {"data": "UklGRiQAAABXQVZF", "format": "wav"}}], "[audio]"),
    ([{"type": "file", "file": {"filename": "sglang_launch.log", "file_data": "data:text/plain;base64,SGVsbG8="}}],
     "[file sglang_launch.log]"),
    ([{"type": "image_url", "image_url": {"url": PNG}}, {"type": "image_url", "image_url": {"url": PNG}}],
     "[image] [image]"),
], ids=["image", "audio", "file", "two-images"])
def test_an_openai_chat_prompt_of_parts_alone_says_what_they_were(tmp_path, parts, shown):
    path = _jsonl(tmp_path / "chat.jsonl", [{"role": "user", "content": parts}, REPLY])
    assert _prompts(path) == [shown]


def test_a_responses_prompt_of_an_image_alone_says_image(tmp_path):
    request = {"model": "gpt-4.1", "input": [{"role": "user", "content": [
        {"type": "input_image", "image_url": PNG, "detail": "auto"}]}]}
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request))
    assert _prompts(path) == ["[image]"]


def test_an_anthropic_prompt_of_an_image_and_a_document_says_both(tmp_path):
    path = _jsonl(tmp_path / "messages.jsonl", [
        {"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="},
             "title": "bench_serving.pdf"}]},
        {"role": "assistant", "content": [{"type": "text", "text": REPLY["content"]}]}])
    assert _prompts(path) == ["[image] [document bench_serving.pdf]"]


def test_claude_code_pasted_images_alone_are_the_prompt(tmp_path):
    envelope = {"sessionId": "s1", "cwd": "/w", "version": "2.1.210", "userType": "external", "isSidechain": False}
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    path = _jsonl(tmp_path / "session.jsonl", [
        {**envelope, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-03-01T10:00:00.000Z",
         "message": {"role": "user", "content": [image, image]}},
        {**envelope, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-03-01T10:00:05.000Z",
         "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "text", "text": REPLY["content"]}]}},
        {**envelope, "type": "user", "uuid": "u3", "parentUuid": "u2", "timestamp": "2026-03-01T10:01:00.000Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "Why is it not loaded?"}, image]}},
    ])
    assert _prompts(path) == ["[Image #1] [Image #2]", "Why is it not loaded?"]  # one prompt each, words kept


def test_a_codex_prompt_of_a_pasted_image_alone_says_image_1(tmp_path):
    def line(ts: str, kind: str, payload: dict) -> dict:
        return {"timestamp": ts, "type": kind, "payload": payload}

    path = _jsonl(tmp_path / "rollout-2026-03-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", [
        line("2026-03-01T10:00:00.000Z", "session_meta", {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "cwd": "/w",
                                                          "originator": "codex_cli_rs", "cli_version": "0.50.0"}),
        line("2026-03-01T10:00:01.000Z", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}),
        line("2026-03-01T10:00:02.000Z", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_image", "image_url": PNG}]}),
    ])
    assert _prompts(path) == ["[Image #1]"]
