"""OpenAI-compatible servers that answer a tool call with an empty id: Gemini's OpenAI-compatible
endpoint (openai/openai-dotnet issue #428, "Empty call IDs can't roundtrip") and LM Studio
(lmstudio-ai/lmstudio-bug-tracker issue #830, a capture of Crush's calls: ``"id": ""``); the agent
answers each with ``"tool_call_id": ""``. Every call had the one id "", so no result was paired
with its call: each command had no exit code, a failing ``nvidia-smi`` no failed command."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _calls(*commands: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": "", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": c})}}
        for c in commands]}


def _result(text: str) -> dict:
    return {"role": "tool", "tool_call_id": "", "content": text}


MESSAGES = [
    {"role": "user", "content": "accept length dropped on gpu07 and gpu08"},
    _calls("ssh gpu07 nvidia-smi", "ssh gpu08 nvidia-smi"),  # two at once, answered in their order
    _result("Failed to initialize NVML: Driver/library version mismatch\nexit code 18"),
    _result("GPU 0: NVIDIA H100 80GB HBM3\nexit code 0"),
    _calls("ssh gpu07 sudo systemctl restart sglang"),
    _result("Job for sglang.service failed because the control process exited with error code.\nexit code 1"),
    {"role": "assistant", "content": "gpu07's driver and library disagree: reinstall the driver."},
]
EXPECTED = [("ssh gpu07 nvidia-smi", 18, True), ("ssh gpu08 nvidia-smi", 0, False),
            ("ssh gpu07 sudo systemctl restart sglang", 1, True)]


def _commands(doc: dict) -> list[tuple[str, int | None, bool]]:
    return [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]]


def test_a_chat_log_pairs_each_result_with_its_call(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": MESSAGES}))
    doc = analyze_path(path).to_json()
    assert _commands(doc) == EXPECTED
    # the reply's two calls (seq 1) answered by the next two messages, the third call (4) by the next
    assert [(c["seq"], c["result_seq"]) for c in doc["commands"]] == [(1, 2), (1, 3), (4, 5)]


def test_a_proxy_log_of_the_calls_pairs_them_too(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    with path.open("w") as log:
        for k in (1, 4, 6):  # each request resends the history; its answer the next message
            answer = {"id": f"chatcmpl-{k}", "object": "chat.completion", "created": 1764930080 + k,
                      "model": "gemini-2.5-pro",
                      "choices": [{"index": 0, "message": MESSAGES[k], "finish_reason": "stop"}]}
            log.write(json.dumps({"request": {"model": "gemini-2.5-pro", "messages": MESSAGES[:k]},
                                  "response": answer}) + "\n")
    assert _commands(analyze_path(path).to_json()) == EXPECTED


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-7", "object": "chat.completion.chunk", "created": 1764930141,
            "model": "gemini-2.5-pro", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _stream(*chunks: dict) -> str:
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


def _record(messages: list, stream: str) -> dict:
    """A streamed call as llm-debug keeps it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``):
    the answer's text, the stream as sent."""
    return {"request": {"method": "POST", "url": "http://127.0.0.1:1234/v1/chat/completions", "headers": {},
                        "body": {"model": "gemini-2.5-pro", "stream": True, "messages": messages}},
            "response": {"status_code": 200, "headers": {"Content-Type": "text/event-stream"}, "body": stream,
                         "error": None}}


def test_a_streamed_call_sent_back_is_read_once(tmp_path: Path) -> None:
    """The answer streamed the call with "id": ""; the next request sends it back with its result:
    the same call, read once (was twice, the first with no result)."""
    restart = "ssh gpu07 sudo systemctl restart sglang"
    called = _stream(_chunk({"role": "assistant", "tool_calls": [
        {"index": 0, "id": "", "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": restart})}}]}), _chunk({}, "tool_calls"))
    said = _stream(_chunk({"role": "assistant", "content": "sglang on gpu07 failed to restart."}), _chunk({}, "stop"))
    ask = {"role": "user", "content": "restart sglang on gpu07"}
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "2025-12-05_10-22-21-000001.json").write_text(json.dumps(_record([ask], called)))
    (logs / "2025-12-05_10-22-30-000002.json").write_text(json.dumps(_record(
        [ask, _calls(restart), _result("Job for sglang.service failed.\nexit code 1")], said)))
    doc = analyze_path(logs).to_json()
    assert [(c["command"], c["exit_code"], c["seq"], c["result_seq"]) for c in doc["commands"]] == [(restart, 1, 1, 2)]
