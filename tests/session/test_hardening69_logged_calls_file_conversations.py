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
