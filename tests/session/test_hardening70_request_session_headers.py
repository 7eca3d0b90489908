"""A ``session_id`` request header names a conversation where the client keeps it for the whole
conversation: Codex does (openai/codex ``codex-rs/codex-api/src/requests/headers.rs``,
``build_conversation_headers``; its client sends ``originator`` on every request,
``codex-rs/core/src/default_client.rs``, ``create_client``). A client that stamps each request with a
fresh id of its own names no conversation by it: read as one, a proxy's log of its one run was a
session per call, the run's first command and prompt counted once per call."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

ASK = {"role": "user", "content": "why did the EAGLE-3 accept length drop on gpu07?"}


def _tool_call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": command})}}]}


C1, C2 = _tool_call("call_1", "ssh gpu07 nvidia-smi"), _tool_call("call_2", "ssh gpu07 'tail -n 50 sglang.log'")
HISTORY = [  # each request resends the one before it and its answer
    ([ASK], C1),
    ([ASK, C1, {"role": "tool", "tool_call_id": "call_1", "content": "Failed to initialize NVML\n"}], C2),
    ([ASK, C1, {"role": "tool", "tool_call_id": "call_1", "content": "Failed to initialize NVML\n"}, C2,
      {"role": "tool", "tool_call_id": "call_2", "content": "accept length 1.02\n"}],
     {"role": "assistant", "content": "The driver on gpu07 is gone; reinstall it."}),
]


def _record(n: int, headers: dict) -> dict:
    messages, answer = HISTORY[n]
    body = {"model": "qwen3-coder", "messages": [{"role": "system", "content": "You are a coding agent."}, *messages]}
    reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n, "model": "qwen3-coder",
             "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}
    return {"request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions",
                        "headers": {"content-type": "application/json", **headers}, "body": body},
            "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}


def _folder(tmp_path: Path, headers_of) -> Path:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n in range(len(HISTORY)):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(_record(n, headers_of(n))))
    return logs


def test_a_fresh_session_id_on_each_request_is_one_conversation(tmp_path: Path) -> None:
    logs = _folder(tmp_path, lambda n: {"session_id": f"5f1c9a2e-77b0-4d1e-9c3a-00000000000{n}"})
    doc = analyze_path(logs).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 'tail -n 50 sglang.log'"]
    assert [p["text"] for p in doc["prompts"]] == [ASK["content"]]


def test_a_jsonl_log_with_a_fresh_session_id_per_request_is_one_session(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(_record(n, {"Session_Id": f"req-{n}"})) + "\n" for n in range(len(HISTORY))))
    doc = analyze_path(path).to_json()
    assert len(doc["sessions"]) == 1
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 'tail -n 50 sglang.log'"]


def test_codex_names_a_one_call_conversation_by_its_header(tmp_path: Path) -> None:
    """Codex's ``originator`` header vouches for its ``session_id``: two one-call Codex sessions that
    open alike are still two (each read alone, as a folder's one call is)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, session in enumerate(("019a6e1c-a", "019a6e1c-b")):
        record = _record(0, {"originator": "codex_exec", "session_id": session})
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["2025-12-05_10-21-20-000000", "2025-12-05_10-21-21-000000"]
