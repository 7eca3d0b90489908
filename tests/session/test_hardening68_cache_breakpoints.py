"""Prompt-cache breakpoints that move: an agent on the Messages API marks the last block of the last
message with ``cache_control`` and, with the next request, marks the new last message instead, the
old one sent back without it (a "rolling ephemeral cache breakpoint on the last content block of the
last message", iTerm2 nightly v20260622; QwenLM/qwen-code PR #4121, the last user message's last
block), a string ``content`` made a one-block list to carry it. Logged by a proxy, the message with
the marker and the same message without it were two messages: no request began with the one before,
and each turn was read again, every prompt and command twice."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_BREAKPOINT = {"type": "ephemeral"}
_SYSTEM = [{"type": "text", "text": "You operate the GPU fleet over ssh.", "cache_control": _BREAKPOINT}]


def _marked(message: dict) -> dict:
    """``message`` with the breakpoint on its last block (a string made a text block first)."""
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else [dict(b) for b in content]
    blocks[-1]["cache_control"] = _BREAKPOINT
    return {**message, "content": blocks}


PROMPT = {"role": "user", "content": "accept length dropped on gpu07"}
CALL_1 = {"role": "assistant", "content": [
    {"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {"command": "ssh gpu07 nvidia-smi"}}]}
RESULT_1 = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True,
                                         "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
CALL_2 = {"role": "assistant", "content": [
    {"type": "tool_use", "id": "toolu_02", "name": "Bash", "input": {"command": "ssh gpu07 sudo reboot"}}]}
RESULT_2 = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_02",
                                         "content": "Reboot scheduled"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "gpu07 is rebooting."}]}
# each request: the history, the last message marked; and the answer
CALLS = [([_marked(PROMPT)], CALL_1), ([PROMPT, CALL_1, _marked(RESULT_1)], CALL_2),
         ([PROMPT, CALL_1, RESULT_1, CALL_2, _marked(RESULT_2)], DONE)]


def _answer(n: int, message: dict) -> dict:
    return {"id": f"msg_0{n}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": message["content"], "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 812, "output_tokens": 40, "cache_read_input_tokens": 790}}


def test_a_proxy_log_of_a_loop_with_moving_breakpoints_reads_each_turn_once(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for n, (messages, answer) in enumerate(CALLS):
        body = {"model": "claude-sonnet-4-5", "messages": messages, "system": _SYSTEM, "max_tokens": 32000}
        record = {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {},
                              "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": _answer(n, answer), "error": None}}
        (folder / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record, indent=2))
    doc = analyze_path(folder).to_json()
    assert [p["text"] for p in doc["prompts"]] == [PROMPT["content"]]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 sudo reboot"]
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (2, 1)


def test_a_log_of_requests_whose_prompt_string_became_a_marked_block(tmp_path: Path) -> None:
    lines = [{"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": messages}
             for messages in ([_marked(PROMPT)], [PROMPT, CALL_1, _marked(RESULT_1)])]
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [PROMPT["content"]]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]


def test_different_words_under_the_same_breakpoint_are_still_two_prompts(tmp_path: Path) -> None:
    other = {"role": "user", "content": "accept length dropped on gpu08"}
    lines = [{"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": [_marked(message)]}
             for message in (PROMPT, other)]
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [PROMPT["content"], other["content"]]
