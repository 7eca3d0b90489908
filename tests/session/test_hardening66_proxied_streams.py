"""A streamed call as an HTTP logging proxy keeps it. llm-debug (SingularityDAO-dev/tamashii-terminal
``llm-debug/app.py``) keeps ``upstream_resp.json()``, else ``upstream_resp.text``: the answer to a
``"stream": true`` request is the stream as sent, ``data: {chat.completion.chunk}`` lines and ``data:
[DONE]``. That text was passed over, so the last call's answer was lost with its tool calls: what the
agent was doing when the log ends, which no later request resends."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_USER = {"role": "user", "content": "accept length dropped on gpu07, restart the server"}


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-7", "object": "chat.completion.chunk", "created": 1764930141, "model": "gpt-4.1",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _stream(*chunks: dict) -> str:
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


_CALL_STREAM = _stream(
    _chunk({"role": "assistant", "content": None, "tool_calls": [
        {"index": 0, "id": "call_9", "type": "function", "function": {"name": "bash", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"command": "ssh gpu07'}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ' sudo systemctl restart sglang"}'}}]}),
    _chunk({}, "tool_calls"))
_CALL = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_9", "type": "function", "function": {
    "name": "bash", "arguments": '{"command": "ssh gpu07 sudo systemctl restart sglang"}'}}]}
_RESULT = {"role": "tool", "tool_call_id": "call_9", "content": "Job for sglang.service failed.\nexit code 1"}


def _record(messages: list, stream: str) -> dict:
    return {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "headers": {},
                        "body": {"model": "gpt-4.1", "stream": True, "messages": messages}},
            "response": {"status_code": 200, "headers": {"Content-Type": "text/event-stream"}, "body": stream,
                         "error": None}}


def test_the_last_streamed_answer_gives_its_tool_call(tmp_path: Path) -> None:
    path = tmp_path / "2025-12-05_10-22-21-000001.json"
    path.write_text(json.dumps(_record([_USER], _CALL_STREAM), indent=2))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 sudo systemctl restart sglang"]


def test_a_folder_of_streamed_calls_reads_each_message_once(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    answer = _stream(_chunk({"role": "assistant", "content": "sglang on gpu07 "}),
                     _chunk({"content": "failed to restart."}), _chunk({}, "stop"))
    (folder / "2025-12-05_10-22-21-000001.json").write_text(json.dumps(_record([_USER], _CALL_STREAM), indent=2))
    (folder / "2025-12-05_10-22-30-000002.json").write_text(
        json.dumps(_record([_USER, _CALL, _RESULT], answer), indent=2))
    doc = analyze_path(folder).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("ssh gpu07 sudo systemctl restart sglang", 1)]
    # prompt, call, result, and the streamed closing answer: each once
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("logs", 4)]


def test_a_stream_of_no_chunks_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "call.json"
    path.write_text(json.dumps(_record([_USER], "data: [DONE]\n\n"), indent=2))
    doc = analyze_path(path).to_json()
    assert (doc["commands"], doc["sessions"][0]["events"]) == ([], 1)


def _event(data: dict) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


def test_a_proxied_anthropic_stream_gives_its_tool_call(tmp_path: Path) -> None:
    # the Messages API's stream events (anthropics/anthropic-sdk-python types/raw_message_stream_event.py)
    stream = "".join(_event(e) for e in [
        {"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant", "content": [],
                                              "model": "claude-sonnet-4-5", "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Restarting it."}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "tool_use", "id": "toolu_01", "name": "bash", "input": {}}},
        {"type": "content_block_delta", "index": 1,
         "delta": {"type": "input_json_delta", "partial_json": '{"command": "ssh gpu07 sudo '}},
        {"type": "content_block_delta", "index": 1,
         "delta": {"type": "input_json_delta", "partial_json": 'systemctl restart sglang"}'}},
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 30}},
        {"type": "message_stop"}])
    record = {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {},
                          "body": {"model": "claude-sonnet-4-5", "stream": True, "max_tokens": 4096,
                                   "messages": [_USER]}},
              "response": {"status_code": 200, "headers": {}, "body": stream, "error": None}}
    path = tmp_path / "call.json"
    path.write_text(json.dumps(record, indent=2))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 sudo systemctl restart sglang"]
    assert doc["sessions"][0]["events"] == 3  # prompt, the text, the call
