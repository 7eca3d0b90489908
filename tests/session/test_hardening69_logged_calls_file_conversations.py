"""dolphin-logger appends every call it passes to one JSONL file a day, ``{"request", "response"}`` a
line (QuixiAI/dolphin-logger ``src/dolphin_logger/logging_utils.py`` ``get_current_log_file``,
``providers/openai.py``), whichever agent made it. Two agents that worked through it at once were one
session, their calls interleaved: each one's prompts, commands and errors the other's. A folder of
one call a file is parted by conversation (test_hardening69_litellm_day_conversations); one file of
the same calls is now parted by the same rules."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_ASK_A = {"role": "user", "content": "accept length dropped on gpu07"}
_ASK_B = {"role": "user", "content": "the draft model OOMs on gpu12"}


def _call(messages: list, answer: str) -> dict:
    return {"request": {"model": "qwen3-coder", "messages": messages, "stream": True}, "response": answer}


def _shell(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{
        "id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


A1, B1 = _shell("call_a1", "ssh gpu07 nvidia-smi"), _shell("call_b1", "ssh gpu12 nvidia-smi")
RA1 = _result("call_a1", "Failed to initialize NVML: Driver/library version mismatch\nexit code: 18")
RB1 = _result("call_b1", "80110MiB / 81559MiB\nexit code: 0")


def _write(path: Path, calls: list[dict]) -> Path:
    path.write_text("".join(json.dumps(call) + "\n" for call in calls))
    return path


def test_two_agents_in_one_dolphin_logger_file_are_a_session_each(tmp_path: Path) -> None:
    path = _write(tmp_path / "0b9e1c4a-7f1e-4a51-9d57-2f1f0c1d2e3f.jsonl", [
        {"request": {"model": "qwen3-coder", "messages": [_ASK_A], "stream": False},
         "response": {"id": "chatcmpl-1", "object": "chat.completion", "created": 1764930080, "model": "qwen3-coder",
                      "choices": [{"index": 0, "message": A1, "finish_reason": "tool_calls"}]}},
        {"request": {"model": "qwen3-coder", "messages": [_ASK_B], "stream": False},
         "response": {"id": "chatcmpl-2", "object": "chat.completion", "created": 1764930081, "model": "qwen3-coder",
                      "choices": [{"index": 0, "message": B1, "finish_reason": "tool_calls"}]}},
        _call([_ASK_A, A1, RA1], "Reinstall the driver on gpu07."),
        _call([_ASK_B, B1, RB1], "gpu12 is full: lower --mem-fraction-static."),
    ])
    doc = analyze_path(path).to_json()
    stem = "0b9e1c4a-7f1e-4a51-9d57-2f1f0c1d2e3f"
    assert sorted((p["session"], p["text"]) for p in doc["prompts"]) == [
        (f"{stem}#1", "accept length dropped on gpu07"), (f"{stem}#2", "the draft model OOMs on gpu12")]
    assert sorted((c["session"], c["command"], c["exit_code"]) for c in doc["commands"]) == [
        (f"{stem}#1", "ssh gpu07 nvidia-smi", 18), (f"{stem}#2", "ssh gpu12 nvidia-smi", 0)]


def test_one_conversation_in_the_file_is_read_as_before(tmp_path: Path) -> None:
    path = _write(tmp_path / "calls.jsonl", [
        _call([_ASK_A], "Which GPU?"),
        _call([_ASK_A, {"role": "assistant", "content": "Which GPU?"}, {"role": "user", "content": "gpu07"}],
              "Run nvidia-smi there."),
    ])
    doc = analyze_path(path).to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("calls", 4)]


def _entry(body: dict, answer: dict, at: str) -> dict:
    """One call as mitmproxy's HAR writer keeps it (mitmproxy/mitmproxy ``mitmproxy/addons/savehar.py``)."""
    return {"startedDateTime": at, "time": 812.4,
            "request": {"method": "POST", "url": "https://api.openai.com/v1/responses", "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "content-type", "value": "application/json"}],
                        "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
                         "content": {"size": 0, "mimeType": "application/json", "text": json.dumps(answer)}}}


def test_two_codex_sessions_in_one_har_capture(tmp_path: Path) -> None:
    """Two Codex sessions in one repository through mitmproxy: each request names its conversation,
    ``prompt_cache_key`` (test_hardening69_codex_proxy_conversations), both open alike."""
    from tests.session.test_hardening69_codex_proxy_conversations import CALLS, _record

    entries = []
    for n, (session, items, output) in enumerate(CALLS):
        record = _record(session, items, output, n)
        entries.append(_entry(record["request"]["body"], record["response"]["body"], f"2025-12-05T10:21:2{n}.000Z"))
    path = tmp_path / "codex.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "11.0.0"},
                                        "pages": [], "entries": entries}}))
    doc = analyze_path(path).to_json()
    assert sorted((c["session"], c["command"], c["exit_code"]) for c in doc["commands"]) == [
        ("codex#019a6e1c-a", "ssh gpu07 nvidia-smi", 18),
        ("codex#019a6e1c-b", "ssh gpu12 nvidia-smi --query-gpu=memory.used --format=csv", 0)]
    assert sorted((p["session"], p["text"]) for p in doc["prompts"]) == [
        ("codex#019a6e1c-a", "accept length dropped on gpu07"), ("codex#019a6e1c-b", "the draft model OOMs on gpu12")]
