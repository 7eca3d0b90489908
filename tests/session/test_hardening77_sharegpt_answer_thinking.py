"""Hermes Agent writes every model turn of a trajectory as ``<think>\\n{reasoning}\\n</think>\\n`` and
what the model said, the answer without calls as well (NousResearch/hermes-agent
``_convert_to_trajectory_format``: "Ensure every gpt turn has a <think> block").

Before: only a turn with ``<tool_call>`` blocks had its thinking read as reasoning; in an answer
without calls the thinking was the answer's text, tags and all: its private guesses were the
model's stated hypotheses ("I suspect ..."), which the same run read from Hermes's store (its
``reasoning`` column) does not give. Now the ``<think>`` blocks of any model turn are its
reasoning and the rest what it said."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

GUESS = "I suspect the draft's d2t map does not match the target tokenizer."
ANSWER = "The server is up; acceptance length is 1.0, so the draft is never accepted."


def _trajectory(path: Path) -> Path:
    call = {"name": "terminal", "arguments": {"command": "curl -s localhost:30000/health"}}
    response = {"tool_call_id": "call_0", "name": "terminal", "content": {"output": "OK", "exit_code": 0,
                                                                            "error": None}}
    path.write_text(json.dumps({"conversations": [
        {"from": "system", "value": "You are a function calling AI model. <tools>[]</tools>"},
        {"from": "human", "value": "is the EAGLE-3 server healthy?"},
        {"from": "gpt", "value": f"<think>\n</think>\n<tool_call>\n{json.dumps(call)}\n</tool_call>"},
        {"from": "tool", "value": f"<tool_response>\n{json.dumps(response)}\n</tool_response>"},
        {"from": "gpt", "value": f"<think>\n{GUESS}\n</think>\n{ANSWER}"}],
        "timestamp": "2026-11-02T08:00:00.123456", "model": "hermes-4", "completed": True}) + "\n")
    return path


def test_an_answers_thinking_is_its_reasoning(tmp_path: Path) -> None:
    path = _trajectory(tmp_path / "trajectory_samples.jsonl")
    [source] = discover(path)
    events = [(e.kind, e.text) for e in iter_events(source, ReadStats(), AgentTree()) if e.seq >= 4]
    assert events == [("thinking", GUESS), ("text", ANSWER)]  # was one text, "<think>\n" + GUESS + ...
    assert analyze_path(path).to_json()["hypotheses"] == []  # was GUESS, the model's thinking


def test_an_answer_with_empty_thinking_is_its_words(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({"conversations": [
        {"from": "human", "value": "which port?"}, {"from": "gpt", "value": "<think>\n</think>\nPort 30000."}]}) + "\n")
    [source] = discover(path)
    assert [(e.kind, e.text) for e in iter_events(source, ReadStats(), AgentTree())] == [
        ("prompt", "which port?"), ("text", "Port 30000.")]
