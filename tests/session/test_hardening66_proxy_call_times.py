"""When a logged call was answered. Neither llm-debug (SingularityDAO-dev/tamashii-terminal
``llm-debug/app.py``: ``{"request": ..., "response": {status_code, headers, body, error}}``) nor
dolphin-logger stamps its records: a session read from them had no time at all (no first or last
timestamp, no durations). The answer says when it was made: a ``chat.completion``'s ``created``
(epoch seconds, openai/openai-python ``types/chat/chat_completion.py``), and the HTTP response's
``Date`` header, which llm-debug keeps with the response's headers."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}
_CALL = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
    "name": "bash", "arguments": json.dumps({"command": "ssh gpu07 nvidia-smi"})}}]}
_RESULT = {"role": "tool", "tool_call_id": "call_1", "content": "Driver Version: 550.54.15"}


def _record(messages: list, body: dict, date: str) -> dict:
    return {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                        "headers": {"Content-Type": "application/json"},
                        "body": {"model": "gpt-4.1", "messages": messages}},
            "response": {"status_code": 200, "headers": {"Date": date, "Content-Type": "application/json"},
                         "body": body, "error": None}}


def _completion(message: dict, created: int) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": created, "model": "gpt-4.1",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def _times(path: Path) -> tuple:
    doc = analyze_path(path).to_json()
    session = doc["sessions"][0]
    return session["first_timestamp"], session["last_timestamp"], [c["timestamp"] for c in doc["commands"]]


def test_each_call_is_stamped_when_its_completion_was_created(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text(json.dumps(_record([_USER], _completion(_CALL, 1764930078), "Fri, 05 Dec 2025 10:21:20 GMT")) + "\n"
                    + json.dumps(_record([_USER, _CALL, _RESULT], _completion(
                        {"role": "assistant", "content": "gpu07 runs 550."}, 1764930141),
                        "Fri, 05 Dec 2025 10:22:23 GMT")) + "\n")
    assert _times(path) == ("2025-12-05T10:21:18.000Z", "2025-12-05T10:22:21.000Z", ["2025-12-05T10:21:18.000Z"])


def test_an_answer_without_a_time_of_its_own_takes_the_responses_date_header(tmp_path: Path) -> None:
    anthropic_answer = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                        "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash",
                                     "input": {"command": "ssh gpu07 nvidia-smi"}}], "stop_reason": "tool_use"}
    path = tmp_path / "2025-12-05_10-21-20-123456.json"
    path.write_text(json.dumps(_record([_USER], anthropic_answer, "Fri, 05 Dec 2025 10:21:20 GMT"), indent=2))
    assert _times(path) == ("2025-12-05T10:21:20.000Z", "2025-12-05T10:21:20.000Z", ["2025-12-05T10:21:20.000Z"])


def test_a_record_with_a_time_of_its_own_keeps_it(tmp_path: Path) -> None:
    record = {**_record([_USER], _completion(_CALL, 1764930078), "Fri, 05 Dec 2025 10:21:20 GMT"),
              "timestamp": "2025-12-05T10:21:19.250Z"}
    path = tmp_path / "calls.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert _times(path)[0] == "2025-12-05T10:21:19.250Z"


def test_a_dolphin_logger_record_of_text_still_has_no_time(tmp_path: Path) -> None:
    path = tmp_path / "logs.jsonl"
    record = {"request": {"model": "gpt-4.1", "messages": [_USER]}, "response": "gpu07 is fine"}
    path.write_text(json.dumps(record) + "\n")
    assert _times(path) == (None, None, [])
