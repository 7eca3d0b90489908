"""An Anthropic Messages request's system prompt: the Messages API has no ``system`` role, the prompt
is the request's top-level ``system``, a string or a list of text blocks (anthropics/anthropic-sdk-python
``src/anthropic/types/message_create_params.py``). A log of such requests, a proxy's record of one, or a
request saved whole was read without it: the prompt the agent ran under was missing from the session,
where an OpenAI request's ``system`` message is read."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_FLEET = "You operate the GPU fleet gpu01-gpu08 over ssh. Never reboot a node that serves traffic."
_BLOCKS = [{"type": "text", "text": "You operate the GPU fleet gpu01-gpu08 over ssh.",
            "cache_control": {"type": "ephemeral"}},
           {"type": "text", "text": "Never reboot a node that serves traffic."}]
_USER = {"role": "user", "content": "accept length dropped on gpu07"}
_CALL = {"role": "assistant", "content": [
    {"type": "text", "text": "Checking the driver first."},
    {"type": "tool_use", "id": "toolu_01", "name": "bash", "input": {"command": "ssh gpu07 nvidia-smi"}}]}
_RESULT = {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_01", "content": "Driver Version: 550.54.15", "is_error": False}]}


def _events(path: Path) -> list[tuple[str, str, str]]:
    [source] = discover(path)
    return [(ev.kind, ev.role, ev.command or ev.text) for ev in iter_events(source, ReadStats(), AgentTree())]


def _request(system: object, messages: list) -> dict:
    return {"model": "claude-sonnet-4-5", "max_tokens": 4096, "system": system, "messages": messages,
            "tools": [{"name": "bash", "input_schema": {"type": "object"}}]}


def test_a_log_of_requests_reads_the_system_prompt_once(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(_request(_FLEET, m)) + "\n" for m in ([_USER], [_USER, _CALL, _RESULT])))
    assert _events(path) == [
        ("system", "system", _FLEET), ("prompt", "user", _USER["content"]),
        ("text", "assistant", "Checking the driver first."), ("tool_call", "assistant", "ssh gpu07 nvidia-smi"),
        ("tool_result", "tool", "Driver Version: 550.54.15")]


def test_a_system_prompt_of_text_blocks_is_their_text(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text(json.dumps(_request(_BLOCKS, [_USER])) + "\n")
    assert _events(path)[0] == ("system", "system", "You operate the GPU fleet gpu01-gpu08 over ssh.\n"
                                                    "Never reboot a node that serves traffic.")


def test_a_proxy_record_of_an_anthropic_call_reads_its_system_prompt(tmp_path: Path) -> None:
    record = {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "headers": {},
                          "body": _request(_FLEET, [_USER])},
              "response": {"status_code": 200, "headers": {}, "error": None, "body": {
                  "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                  "content": [{"type": "text", "text": "gpu07 runs driver 550."}], "stop_reason": "end_turn"}}}
    path = tmp_path / "2025-12-05_10-21-20-123456.json"
    path.write_text(json.dumps(record, indent=2))
    assert _events(path) == [("system", "system", _FLEET), ("prompt", "user", _USER["content"]),
                             ("text", "assistant", "gpu07 runs driver 550.")]


def test_a_request_saved_whole_reads_its_system_prompt_first(tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(_request(_FLEET, [_USER, _CALL, _RESULT]), indent=2))
    assert [e[0] for e in _events(path)] == ["system", "prompt", "text", "tool_call", "tool_result"]
    assert _events(path)[0] == ("system", "system", _FLEET)


def test_a_changed_system_prompt_is_read_again_and_the_history_still_once(tmp_path: Path) -> None:
    other = "You operate the GPU fleet. gpu07 is drained."
    path = tmp_path / "requests.jsonl"
    path.write_text(json.dumps(_request(_FLEET, [_USER])) + "\n"
                    + json.dumps(_request(other, [_USER, _CALL, _RESULT])) + "\n")
    assert [(k, t) for k, _r, t in _events(path)] == [
        ("system", _FLEET), ("prompt", _USER["content"]), ("system", other),
        ("text", "Checking the driver first."), ("tool_call", "ssh gpu07 nvidia-smi"),
        ("tool_result", "Driver Version: 550.54.15")]


def test_an_openai_request_without_a_system_field_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text(json.dumps({"model": "gpt-4.1", "messages": [{"role": "system", "content": _FLEET}, _USER]}) + "\n")
    assert _events(path) == [("system", "system", _FLEET), ("prompt", "user", _USER["content"])]
