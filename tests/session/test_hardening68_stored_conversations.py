"""A Responses API loop that lets the API keep the conversation: each request names the one before
(``previous_response_id``) or a stored conversation (``conversation``) and sends only what is new,
but sends its ``instructions`` every time, as they do not carry over (the OpenAI Agents SDK passes
``instructions=system_instructions`` with both on every call: openai/openai-agents-python
``src/agents/models/openai_responses.py``, ``_fetch_response``). Logged, each request's instructions
were read again: a loop of n calls had its system prompt n times among its events."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_INSTRUCTIONS = "You debug EAGLE-3 speculative decoding on a GPU fleet."


def _call(n: int, command: str) -> dict:
    return {"id": f"fc_{n}", "type": "function_call", "status": "completed", "call_id": f"call_{n}",
            "name": "run_shell", "arguments": json.dumps({"command": command})}


def _output(n: int, text: str) -> dict:
    return {"type": "function_call_output", "call_id": f"call_{n}", "output": text}


def _response(n: int, items: list[dict]) -> dict:
    return {"id": f"resp_{n}", "object": "response", "created_at": 1764930080 + 4 * n, "status": "completed",
            "model": "gpt-4.1", "output": items}


_DONE = {"id": "msg_3", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "gpu07 runs the old driver.", "annotations": []}]}
# (the request's new input, what answered it)
_TURNS = [([{"role": "user", "content": "accept length dropped on gpu07"}], [_call(1, "ssh gpu07 nvidia-smi")]),
          ([_output(1, "Driver Version: 535.104.05")], [_call(2, "ssh gpu07 cat /proc/driver/nvidia/version")]),
          ([_output(2, "NVRM version: 535.104.05")], [_DONE])]
_EXPECTED = [("system", _INSTRUCTIONS), ("prompt", "accept length dropped on gpu07"),
             ("tool_call", "ssh gpu07 nvidia-smi"), ("tool_result", "Driver Version: 535.104.05"),
             ("tool_call", "ssh gpu07 cat /proc/driver/nvidia/version"), ("tool_result", "NVRM version: 535.104.05"),
             ("text", "gpu07 runs the old driver.")]


def _events(path: Path) -> list[tuple[str, str]]:
    [source] = discover(path)
    return [(ev.kind, ev.command or ev.text) for ev in iter_events(source, ReadStats(), AgentTree())]


def test_a_proxy_log_of_a_previous_response_chain_reads_its_instructions_once(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for n, (inputs, output) in enumerate(_TURNS):
        body: dict = {"model": "gpt-4.1", "instructions": _INSTRUCTIONS, "input": inputs, "store": True}
        if n:
            body["previous_response_id"] = f"resp_{n - 1}"
        record = {"request": {"method": "POST", "url": "https://api.openai.com/v1/responses", "headers": {},
                              "body": body},
                  "response": {"status_code": 200, "headers": {}, "body": _response(n, output), "error": None}}
        (folder / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record, indent=2))
    assert _events(folder) == _EXPECTED


def test_a_log_of_requests_in_a_stored_conversation_reads_its_instructions_once(tmp_path: Path) -> None:
    lines = []
    for n, (inputs, output) in enumerate(_TURNS):
        lines.append({"model": "gpt-4.1", "instructions": _INSTRUCTIONS, "input": inputs,
                      "conversation": "conv_68a7f0c2"})
        lines.append(_response(n, output))
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert _events(path) == _EXPECTED


def test_conversations_of_their_own_with_one_system_prompt_still_read_it_each(tmp_path: Path) -> None:
    # no stored conversation named: two tasks of an eval under one prompt, each read whole
    lines = [{"model": "gpt-4.1", "instructions": _INSTRUCTIONS, "input": [{"role": "user", "content": task}]}
             for task in ("check gpu07", "check gpu08")]
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert _events(path) == [("system", _INSTRUCTIONS), ("prompt", "check gpu07"),
                             ("system", _INSTRUCTIONS), ("prompt", "check gpu08")]
