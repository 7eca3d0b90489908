"""A function tool that failed under the OpenAI Agents SDK: the SDK does not stop the run, it hands
the model ``default_tool_error_function``'s text as the tool's output (openai/openai-agents-python
``src/agents/tool.py``): ``An error occurred while running the tool. Please try again. Error: ...``
when the tool raised, ``An error occurred while parsing tool arguments. Please try again with valid
JSON. Error: ...`` when its arguments were no JSON, two objects back to back (``{...}{...}``, the
parallel-call glitch) among them: that call never ran. Logged as chat messages or as Responses
items, each read as a result that came back fine: a call the model sent broken was no failure."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_TWO_OBJECTS = json.dumps({"command": "nvidia-smi"}) + json.dumps({"command": "ssh gpu07 uptime"})
_PARSE_FAILED = ("An error occurred while parsing tool arguments. Please try again with valid JSON. "
                 "Error: Extra data: line 1 column 26 (char 25)")
_RAISED = ("An error occurred while running the tool. Please try again. "
           "Error: [Errno 2] No such file or directory: '/models/eagle3/config.json'")
_FINE = "NVIDIA-SMI 550.54.15  Driver Version: 550.54.15  CUDA Version: 12.4"


def _chat(call_id: str, arguments: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "run_shell", "arguments": arguments}}]}


def _chat_log() -> list[dict]:
    return [{"role": "user", "content": "why did accept length drop on gpu07?"},
            _chat("call_1", _TWO_OBJECTS), {"role": "tool", "tool_call_id": "call_1", "content": _PARSE_FAILED},
            _chat("call_2", json.dumps({"command": "cat /models/eagle3/config.json"})),
            {"role": "tool", "tool_call_id": "call_2", "content": _RAISED},
            _chat("call_3", json.dumps({"command": "nvidia-smi"})),
            {"role": "tool", "tool_call_id": "call_3", "content": _FINE}]


def _responses_items() -> list[dict]:
    """``result.to_input_list()`` of the same run with the SDK's default Responses model."""
    items: list[dict] = [{"role": "user", "content": "why did accept length drop on gpu07?"}]
    for n, (arguments, output) in enumerate([(_TWO_OBJECTS, _PARSE_FAILED),
                                             (json.dumps({"command": "cat /models/eagle3/config.json"}), _RAISED),
                                             (json.dumps({"command": "nvidia-smi"}), _FINE)], 1):
        items.append({"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": "run_shell",
                      "arguments": arguments, "status": "completed"})
        items.append({"type": "function_call_output", "call_id": f"call_{n}", "output": output})
    return items


def _results(path: Path) -> list[tuple[str, bool]]:
    [source] = discover(path)
    return [(ev.text[:40], ev.is_error) for ev in iter_events(source, ReadStats(), AgentTree())
            if ev.kind == "tool_result"]


def test_chat_messages_an_sdk_error_reply_is_a_failed_call(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"messages": _chat_log()}))
    assert _results(path) == [(_PARSE_FAILED[:40], True), (_RAISED[:40], True), (_FINE[:40], False)]


def test_responses_items_an_sdk_error_reply_is_a_failed_call(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_text(json.dumps(_responses_items()))
    assert _results(path) == [(_PARSE_FAILED[:40], True), (_RAISED[:40], True), (_FINE[:40], False)]


def test_the_run_counts_both_failed_calls(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in _chat_log()))
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("nvidia-smi", True), ("cat /models/eagle3/config.json", True), ("nvidia-smi", False)]
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (3, 2)


def test_the_text_quoted_inside_an_output_is_no_failure(tmp_path: Path) -> None:
    # a command whose output mentions the SDK's words (a grep of the agent's own log) ran fine
    quoted = "agent.log:41: " + _RAISED
    log = [{"role": "user", "content": "what failed?"},
           _chat("call_1", json.dumps({"command": "grep -n Error agent.log"})),
           {"role": "tool", "tool_call_id": "call_1", "content": quoted}]
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"messages": log}))
    assert _results(path) == [(quoted[:40], False)]
