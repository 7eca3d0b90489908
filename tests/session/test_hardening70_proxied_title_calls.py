"""OpenCode's title call through a logging proxy. At a session's first prompt OpenCode asks a small
model for a title: the title generator's system prompt, the user message ``Generate a title for this
conversation:`` (alone, or before the prompt in the same message in older releases), then the
person's first prompt (sst/opencode ``packages/opencode/src/session/prompt.ts``, ``ensureTitle``).
Read as a call of the session, the prompt was the person's twice, ``Generate a title ...`` a prompt of
theirs, and the title the assistant's words; two sessions' title calls, alike in their first user
message, were a session of their own."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SYSTEM = {"role": "system", "content": "You are opencode, an interactive CLI tool that helps users with software "
                                       "engineering tasks."}
TITLER = {"role": "system", "content": "You are a title generator. You output ONLY a thread title. Nothing else."}
ASK = "Generate a title for this conversation:\n"


def _bash(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": command, "description": "check"})}}]}


def _run(tag: str, host: str, prompt: str, joined: bool) -> list[tuple[list, dict]]:
    first = {"role": "user", "content": prompt}
    title_messages = [TITLER, {"role": "user", "content": ASK + prompt}] if joined else \
        [TITLER, {"role": "user", "content": ASK}, first]
    call = _bash(f"call_{tag}", f"ssh {host} nvidia-smi")
    return [
        (title_messages, {"role": "assistant", "content": f"Slow draft on {host}"}),
        ([SYSTEM, first], call),
        ([SYSTEM, first, call, {"role": "tool", "tool_call_id": f"call_{tag}", "content": "ok\n"}],
         {"role": "assistant", "content": f"The GPUs on {host} are fine."}),
    ]


def _write(logs: Path, calls: list[tuple[list, dict]]) -> None:
    logs.mkdir()
    for n, (messages, answer) in enumerate(calls):
        record = {"request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions",
                              "headers": {"user-agent": "opencode/1.0.134"},
                              "body": {"model": "qwen3-coder", "messages": messages}},
                  "response": {"status_code": 200, "headers": {}, "error": None,
                               "body": {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n,
                                        "model": "qwen3-coder",
                                        "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}}}
        (logs / f"2025-12-05_10-21-{n:02d}-000000.json").write_text(json.dumps(record))


def test_the_title_call_is_no_part_of_the_conversation(tmp_path: Path) -> None:
    for joined in (False, True):
        _write(logs := tmp_path / f"logs{int(joined)}", _run("a", "gpu07", "why is the draft on gpu07 slow?", joined))
        doc = analyze_path(logs).to_json()
        assert [p["text"] for p in doc["prompts"]] == ["why is the draft on gpu07 slow?"]
        # the system prompt, the prompt, the call, its output, the answer
        assert [s["events"] for s in doc["sessions"]] == [5]


def test_two_sessions_title_calls_go_on_their_sessions(tmp_path: Path) -> None:
    a = _run("a", "gpu07", "why is the draft on gpu07 slow?", joined=False)
    b = _run("b", "gpu12", "sglang on gpu12 crashed", joined=False)
    _write(logs := tmp_path / "logs", [a[0], b[0], a[1], b[1], a[2], b[2]])
    doc = analyze_path(logs).to_json()
    assert len(doc["sessions"]) == 2
    assert sorted((p["session"] == doc["commands"][0]["session"], p["text"]) for p in doc["prompts"]) == [
        (False, "sglang on gpu12 crashed"), (True, "why is the draft on gpu07 slow?")]
