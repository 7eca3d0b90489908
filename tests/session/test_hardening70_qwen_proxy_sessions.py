"""Qwen Code through a logging proxy. Every request of a Qwen Code session opens with the context it
writes itself, ``This is the Qwen Code. We are setting up the context for our chat.`` with the day,
the system and the folder (QwenLM/qwen-code ``packages/core/src/utils/environmentContext.ts``,
``getInitialChatHistory``): the same first user message for every session in one folder on one day.
Qwen Code names its session in the request's ``metadata.sessionId`` (with ``promptId``: ``packages/core/
src/core/openaiContentGenerator/provider/dashscope.ts``, ``buildMetadata``; the default provider with
``includeMetadata``). Parted by first prompts, two sessions in one repository were one, each one's
commands the other's."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SETUP = {"role": "user", "content": "This is the Qwen Code. We are setting up the context for our chat.\n"
                                    "Today's date is Friday, December 5, 2025 (formatted according to the user's "
                                    "locale).\nMy operating system is: linux\nI'm currently working in the directory: "
                                    "/home/me/sglang\nHere is the folder structure of the current working directories:"
                                    "\n\n/home/me/sglang/\n├───serve.sh\n└───python/"}
GOT_IT = {"role": "assistant", "content": "Got it. Thanks for the context!"}


def _bash(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {
        "name": "run_shell_command", "arguments": json.dumps({"command": command})}}]}


A1, B1 = _bash("call_a1", "ssh gpu07 nvidia-smi"), _bash("call_b1", "ssh gpu12 'tail -n 20 sglang.log'")
ASK_A = {"role": "user", "content": "the EAGLE-3 draft on gpu07 is slow"}
ASK_B = {"role": "user", "content": "sglang on gpu12 crashed overnight"}
CALLS = [  # (session, messages, answer), interleaved as two terminals sent them
    ("sess-a", [ASK_A], A1),
    ("sess-b", [ASK_B], B1),
    ("sess-a", [ASK_A, A1, {"role": "tool", "tool_call_id": "call_a1", "content": "GPU 0: 99%\n"}],
     {"role": "assistant", "content": "gpu07 is busy with another job."}),
    ("sess-b", [ASK_B, B1, {"role": "tool", "tool_call_id": "call_b1", "content": "CUDA out of memory\n"}],
     {"role": "assistant", "content": "gpu12 ran out of memory."}),
]


def test_qwen_code_sessions_through_a_proxy_are_parted_by_their_session_id(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (session, messages, answer) in enumerate(CALLS):
        body = {"model": "qwen3-coder-plus", "stream": False,
                "messages": [{"role": "system", "content": "You are Qwen Code."}, SETUP, GOT_IT, *messages],
                "metadata": {"sessionId": session, "promptId": f"{session}########{n // 2}"}}
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n,
                 "model": "qwen3-coder-plus", "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}
        record = {"request": {"method": "POST", "url": "http://127.0.0.1:4000/v1/chat/completions", "headers": {},
                              "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["logs#sess-a", "logs#sess-b"]
    assert sorted((c["session"], c["command"]) for c in doc["commands"]) == [
        ("logs#sess-a", "ssh gpu07 nvidia-smi"), ("logs#sess-b", "ssh gpu12 'tail -n 20 sglang.log'")]
