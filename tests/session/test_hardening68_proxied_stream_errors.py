"""A streamed call that failed after its 200: the Messages API sends ``event: error`` / ``data:
{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`` inside a stream
it has begun, and the SDK raises it as the call's error (anthropics/anthropic-sdk-python
``src/anthropic/_streaming.py``, ``Stream.__stream__``); OpenAI's streams say so with a ``data:
{"error": {...}}`` chunk or a ``response.failed`` event. A logging proxy keeps the stream as text
(llm-debug: SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``) with the status 200: the
failed call read as an answer cut short, and the agent's error went unseen."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_PROMPT = {"role": "user", "content": "accept length dropped on gpu07"}


def _sse(events: list[dict], named: bool = True) -> str:
    return "".join((f"event: {e['type']}\n" if named else "") + f"data: {json.dumps(e)}\n\n" for e in events)


def _record(url: str, body: dict, answer: str) -> dict:
    return {"request": {"method": "POST", "url": url, "headers": {}, "body": body},
            "response": {"status_code": 200, "headers": {"content-type": "text/event-stream"}, "body": answer,
                         "error": None}}


def _errors(tmp_path: Path, record: dict) -> list[str]:
    path = tmp_path / "2025-12-05_10-21-20-123456.json"
    path.write_text(json.dumps(record, indent=2))
    [source] = discover(path)
    return [ev.text for ev in iter_events(source, ReadStats(), AgentTree()) if ev.raw_type == "error"]


def test_an_anthropic_stream_that_failed_midway_is_the_agents_error(tmp_path: Path) -> None:
    stream = _sse([{"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant",
                                                         "content": [], "model": "claude-sonnet-4-5"}},
                   {"type": "ping"},
                   {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}])
    record = _record("https://api.anthropic.com/v1/messages", {"model": "claude-sonnet-4-5", "max_tokens": 8192,
                                                                "messages": [_PROMPT], "stream": True}, stream)
    assert _errors(tmp_path, record) == ["overloaded_error: Overloaded"]


def test_a_chat_completions_stream_with_an_error_chunk_is_the_agents_error(tmp_path: Path) -> None:
    stream = _sse([{"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1764930080, "model": "gpt-4.1",
                    "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]},
                   {"error": {"message": "The server had an error while processing your request.",
                              "type": "server_error", "code": None}}], named=False) + "data: [DONE]\n\n"
    record = _record("https://api.openai.com/v1/chat/completions",
                     {"model": "gpt-4.1", "messages": [_PROMPT], "stream": True}, stream)
    assert _errors(tmp_path, record) == ["server_error: The server had an error while processing your request."]


def test_a_responses_stream_that_failed_is_the_agents_error(tmp_path: Path) -> None:
    failed = {"id": "resp_1", "object": "response", "status": "failed", "output": [],
              "error": {"code": "server_error", "message": "An error occurred while processing your request."}}
    stream = _sse([{"type": "response.created", "response": {**failed, "status": "in_progress", "error": None}},
                   {"type": "response.failed", "response": failed}])
    record = _record("https://api.openai.com/v1/responses",
                     {"model": "gpt-5", "input": [_PROMPT], "stream": True}, stream)
    assert _errors(tmp_path, record) == ["server_error: An error occurred while processing your request."]


def test_a_stream_that_only_mentions_an_error_is_an_answer(tmp_path: Path) -> None:
    text = 'The log says "error": CUDA out of memory on gpu07.'
    stream = _sse([{"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1764930080, "model": "gpt-4.1",
                    "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]},
                   {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1764930080, "model": "gpt-4.1",
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}], named=False)
    record = _record("https://api.openai.com/v1/chat/completions",
                     {"model": "gpt-4.1", "messages": [_PROMPT], "stream": True}, stream)
    assert _errors(tmp_path, record) == []
