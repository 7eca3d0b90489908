"""Codex on the Chat Completions wire (``wire_api = "chat"``, a local vLLM or SGLang server) names its
conversation only in a request header, ``session_id`` (openai/codex ``codex-rs/codex-api/src/requests/
headers.rs``, ``build_conversation_headers``; ``requests/chat.rs`` sends no ``prompt_cache_key``).
Two Codex sessions in one repository open every request with the same AGENTS.md and environment
context, so a proxy's record of their calls (a folder of llm-debug files, a mitmproxy HAR capture)
was read as one session: the second session's commands and prompts went on the first's."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_AGENTS = {"role": "user", "content": "# AGENTS.md instructions for /home/me/sglang\n\n<INSTRUCTIONS>\n"
                                      "Never reboot a node that serves traffic.\n</INSTRUCTIONS>"}
_ENV = {"role": "user", "content": "<environment_context>\n  <cwd>/home/me/sglang</cwd>\n</environment_context>"}
ASK_A = {"role": "user", "content": "accept length dropped on gpu07"}
ASK_B = {"role": "user", "content": "the draft model OOMs on gpu12"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {
        "name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", command]})}}]}


def _output(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


A1, B1 = _call("call_a1", "ssh gpu07 nvidia-smi"), _call("call_b1", "ssh gpu12 nvidia-smi")
CALLS = [  # (session, messages, answer) in the order they were made: two sessions, interleaved
    ("019a6e1c-a", [_AGENTS, _ENV, ASK_A], A1),
    ("019a6e1c-b", [_AGENTS, _ENV, ASK_B], B1),
    ("019a6e1c-a", [_AGENTS, _ENV, ASK_A, A1, _output("call_a1", "Failed to initialize NVML\n")],
     {"role": "assistant", "content": "Reinstall the driver on gpu07."}),
    ("019a6e1c-b", [_AGENTS, _ENV, ASK_B, B1, _output("call_b1", "80110 MiB\n")],
     {"role": "assistant", "content": "gpu12 is full."}),
]


def _bodies(n: int) -> tuple[dict, dict]:
    _session, messages, answer = CALLS[n]
    body = {"model": "gpt-oss-120b", "messages": [{"role": "system", "content": "You are Codex."}, *messages],
            "stream": False, "tools": []}
    reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n, "model": "gpt-oss-120b",
             "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}
    return body, reply


def _sessions(doc: dict) -> tuple[list, list]:
    return (sorted((c["session"].rsplit("#", 1)[-1], c["command"]) for c in doc["commands"]),
            sorted((p["session"].rsplit("#", 1)[-1], p["text"]) for p in doc["prompts"]))


EXPECTED = ([("019a6e1c-a", "ssh gpu07 nvidia-smi"), ("019a6e1c-b", "ssh gpu12 nvidia-smi")],
            [("019a6e1c-a", "accept length dropped on gpu07"), ("019a6e1c-b", "the draft model OOMs on gpu12")])


def test_a_folder_of_logged_chat_calls_is_a_session_per_codex_session(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (session, _messages, _answer) in enumerate(CALLS):
        body, reply = _bodies(n)
        record = {"request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions",
                              "headers": {"content-type": "application/json", "Session_Id": session}, "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["logs#019a6e1c-a", "logs#019a6e1c-b"]
    assert _sessions(doc) == EXPECTED


def test_a_har_capture_of_chat_calls_is_a_session_per_codex_session(tmp_path: Path) -> None:
    entries = []
    for n, (session, _messages, _answer) in enumerate(CALLS):
        body, reply = _bodies(n)
        entries.append({"startedDateTime": f"2025-12-05T10:21:2{n}.000Z", "time": 812.4,
                        "request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions",
                                    "httpVersion": "HTTP/1.1",
                                    "headers": [{"name": "content-type", "value": "application/json"},
                                                {"name": "session_id", "value": session}],
                                    "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
                        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
                                     "content": {"size": 0, "mimeType": "application/json",
                                                 "text": json.dumps(reply)}}})
    path = tmp_path / "codex.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "11.0.0"},
                                        "pages": [], "entries": entries}}))
    doc = analyze_path(path).to_json()
    assert len(doc["sessions"]) == 2
    assert _sessions(doc) == EXPECTED


def test_calls_without_the_header_are_still_one_conversation(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n in (0, 2):
        body, reply = _bodies(n)
        record = {"request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions",
                              "headers": {"content-type": "application/json"}, "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]
