"""A log of an Anthropic Messages loop: each request (``{model, max_tokens, system, messages}``) and
the answer after it saved whole (``print(message.model_dump_json())``: ``{id, type: "message", role:
"assistant", content, model, stop_reason, stop_sequence, usage}``, anthropics/anthropic-sdk-python
``src/anthropic/types/message.py``). The next request sends the answer back as ``{role, content}``.
The answer was read as a message of no conversation, and sent back it was read again: each call the
model made was counted twice, a command run once looked run twice."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_SYSTEM = "You operate the GPU fleet gpu01-gpu08 over ssh."
_PROMPT = {"role": "user", "content": "accept length dropped on gpu07"}


def _answer(n: int, content: list[dict], stop: str) -> dict:
    """As ``model_dump_json`` writes it: every field, unset ones null."""
    return {"id": f"msg_0{n}", "container": None, "content": content, "model": "claude-sonnet-4-5",
            "role": "assistant", "stop_details": None, "stop_reason": stop, "stop_sequence": None,
            "type": "message", "usage": {"input_tokens": 812, "output_tokens": 64, "cache_read_input_tokens": 0}}


_CALL = [{"citations": None, "text": "Checking the driver first.", "type": "text"},
         {"id": "toolu_01", "input": {"command": "ssh gpu07 nvidia-smi"}, "name": "bash", "type": "tool_use"}]
_RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
_DONE = [{"citations": None, "text": "The driver and the library disagree.", "type": "text"}]


def _request(messages: list) -> dict:
    return {"model": "claude-sonnet-4-5", "max_tokens": 4096, "system": _SYSTEM, "messages": messages}


def _events(path: Path) -> list[tuple[str, str]]:
    [source] = discover(path)
    return [(ev.kind, ev.command or ev.text) for ev in iter_events(source, ReadStats(), AgentTree())]


_EXPECTED = [("system", _SYSTEM), ("prompt", _PROMPT["content"]), ("text", "Checking the driver first."),
             ("tool_call", "ssh gpu07 nvidia-smi"),
             ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
             ("text", "The driver and the library disagree.")]


def test_an_answer_sent_back_as_role_and_content_is_read_once(tmp_path: Path) -> None:
    # the loop sends back the blocks as the API gave them, less the null fields
    sent = {"role": "assistant", "content": [{"text": "Checking the driver first.", "type": "text"}, _CALL[1]]}
    lines = [_request([_PROMPT]), _answer(1, _CALL, "tool_use"), _request([_PROMPT, sent, _RESULT]),
             _answer(2, _DONE, "end_turn")]
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert _events(path) == _EXPECTED


def test_an_answer_sent_back_dumped_whole_is_read_once(tmp_path: Path) -> None:
    # {"role": ..., "content": [block.model_dump() ...]}: the blocks keep their null fields
    sent = {"role": "assistant", "content": _CALL}
    lines = [_request([_PROMPT]), _answer(1, _CALL, "tool_use"), _request([_PROMPT, sent, _RESULT]),
             _answer(2, _DONE, "end_turn")]
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert _events(path) == _EXPECTED


def test_answers_alone_are_each_read(tmp_path: Path) -> None:
    # a log of answers with no requests: nothing to match, every answer read
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(_answer(1, _CALL, "tool_use")) + "\n" + json.dumps(_answer(2, _DONE, "end_turn")) + "\n")
    assert _events(path) == [("text", "Checking the driver first."), ("tool_call", "ssh gpu07 nvidia-smi"),
                             ("text", "The driver and the library disagree.")]
