"""A streamed answer a logging proxy kept as the text it was sent, opening with a server-sent-events
comment. OpenRouter sends ``: OPENROUTER PROCESSING`` comments into a stream to keep the connection
open (openrouter.ai/docs/api-reference/streaming, "Additional Information": skip lines that start
with ``:``; the WHATWG HTML standard, "Server-sent events": a line that starts with a colon is
ignored). A stream that opened with one was read as the assistant's words, the raw ``data:`` lines,
and its tool calls were lost: the command the agent ran last, and a failure mid-stream."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

ASK = "are the draft servers on gpu07 and gpu12 alive?"


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "gen-1764930080-abc", "object": "chat.completion.chunk", "created": 1764930080,
            "model": "qwen/qwen3-coder", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


CHUNKS = [
    _chunk({"role": "assistant", "content": ""}),
    _chunk({"content": "Checking both GPUs."}),
    _chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                            "function": {"name": "bash", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{\"command\": \"ssh gpu07"}}]}),
    _chunk({"tool_calls": [{"index": 1, "id": "call_b", "type": "function",
                            "function": {"name": "bash", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": " nvidia-smi\"}"}}]}),
    _chunk({"tool_calls": [{"index": 1, "function": {"arguments": "{\"command\": \"ssh gpu12 nvidia-smi\"}"}}]}),
    _chunk({}, "tool_calls"),
]


def _stream(events: list[dict], done: bool = True) -> str:
    lines = [": OPENROUTER PROCESSING\n\n", ": OPENROUTER PROCESSING\n\n"]
    lines += [f"data: {json.dumps(e)}\n\n" for e in events]
    return "".join(lines) + ("data: [DONE]\n\n" if done else "")


def _logged(tmp_path: Path, text: str) -> Path:
    body = {"model": "qwen/qwen3-coder", "stream": True, "messages": [{"role": "user", "content": ASK}]}
    record = {"request": {"method": "POST", "url": "https://openrouter.ai/api/v1/chat/completions", "headers": {},
                          "body": body},
              "response": {"status_code": 200, "headers": {"content-type": "text/event-stream"}, "body": text,
                           "error": None}}
    path = tmp_path / "2025-12-05_10-21-20-000000.json"
    path.write_text(json.dumps(record))
    return path


def test_a_stream_that_opens_with_a_comment_is_read_as_its_chunks(tmp_path: Path) -> None:
    doc = analyze_path(_logged(tmp_path, _stream(CHUNKS))).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu12 nvidia-smi"]
    assert [p["text"] for p in doc["prompts"]] == [ASK]
    # the prompt, the words, two calls: no event holds the raw stream
    assert [s["events"] for s in doc["sessions"]] == [4]


def test_an_error_after_a_comment_is_the_call_s_failure(tmp_path: Path) -> None:
    plain = {"error": {"code": 502, "message": "Provider disconnected"}}
    [source] = discover(_logged(tmp_path, _stream([*CHUNKS[:2], plain], done=False)))
    assert [ev.text for ev in iter_events(source, ReadStats(), AgentTree()) if ev.raw_type == "error"] == [
        "Provider disconnected"]
