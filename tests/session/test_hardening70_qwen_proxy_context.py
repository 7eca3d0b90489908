"""Qwen Code's own context message in its requests through a logging proxy (``This is the Qwen Code.
We are setting up the context for our chat.``: QwenLM/qwen-code ``packages/core/src/utils/
environmentContext.ts``, ``getInitialChatHistory``). Its own session files read it as the CLI's
(formats.gemini_parts); read from a proxy's record it was the person's first prompt in every session,
and the first prompt that told two sessions without a name apart was the same for both."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening70_qwen_proxy_sessions import CALLS, GOT_IT, SETUP


def _write(logs: Path, named: bool) -> None:
    logs.mkdir()
    for n, (session, messages, answer) in enumerate(CALLS):
        body = {"model": "qwen3-coder-plus", "messages": [{"role": "system", "content": "You are Qwen Code."},
                                                          SETUP, GOT_IT, *messages]}
        if named:
            body["metadata"] = {"sessionId": session, "promptId": f"{session}########0"}
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n,
                 "model": "qwen3-coder-plus", "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}
        record = {"request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions", "headers": {},
                              "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": reply, "error": None}}
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))


def test_qwen_code_s_context_is_no_prompt(tmp_path: Path) -> None:
    _write(logs := tmp_path / "logs", named=True)
    doc = analyze_path(logs).to_json()
    assert sorted((p["session"], p["text"]) for p in doc["prompts"]) == [
        ("logs#sess-a", "the EAGLE-3 draft on gpu07 is slow"), ("logs#sess-b", "sglang on gpu12 crashed overnight")]


def test_unnamed_qwen_code_sessions_are_told_apart_by_their_first_prompt(tmp_path: Path) -> None:
    _write(logs := tmp_path / "logs", named=False)
    doc = analyze_path(logs).to_json()
    by_session: dict[str, list[str]] = {}
    for command in doc["commands"]:
        by_session.setdefault(command["session"], []).append(command["command"])
    assert len(doc["sessions"]) == 2
    assert sorted(by_session.values()) == [["ssh gpu07 nvidia-smi"], ["ssh gpu12 'tail -n 20 sglang.log'"]]
