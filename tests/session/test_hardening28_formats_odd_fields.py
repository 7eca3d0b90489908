"""A saved Responses API stream with a damaged event (a proxy's or a hand-edited line): an event whose
``type`` is a list or an object, a ``response.completed`` whose ``output`` is not a list. The event is
kept and counted as unknown, the rest read. Before: ``TypeError: unhashable type`` or ``'int' object
is not iterable`` stopped ``spec-debug analyze`` with a traceback. Found by fuzzing field types of the
events in openai/openai-python ``types/responses/response_stream_event.py`` shapes."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

SSH = "ssh gpu-node-3 nvidia-smi"
CALL = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
        "arguments": json.dumps({"command": ["bash", "-lc", SSH]})}


@pytest.mark.parametrize("odd", [
    {"type": ["response.completed"], "sequence_number": 2},
    {"type": {"name": "response.completed"}, "sequence_number": 2},
    {"type": "response.completed", "sequence_number": 2, "response": {"id": "resp_1", "output": 1}},
], ids=["type-list", "type-object", "output-number"])
def test_a_damaged_event_is_passed_over(tmp_path, odd):
    events = [{"type": "response.created", "sequence_number": 0, "response": {"id": "resp_1", "created_at": 1767225600}},
              {"type": "response.output_item.done", "sequence_number": 1, "output_index": 0, "item": CALL}, odd]
    path = tmp_path / "stream.txt"
    path.write_text("".join(f"data: {json.dumps(e)}\n\n" for e in events))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]
    assert doc["sessions"][0]["unknown_types"] == (0 if isinstance(odd["type"], str) else 1)


@pytest.mark.parametrize("odd_type", [["text"], {"kind": "text"}], ids=["list", "object"])
def test_a_chat_message_block_of_no_type_is_passed_over(tmp_path, odd_type):
    # Cursor's agent transcript (tests/session/data_hardening20_formats/cursor_agent_transcript.jsonl,
    # see its SOURCE.md) with its first assistant block's "type" damaged: that block is passed over,
    # the Shell call beside it read. Before: TypeError: unhashable type (openai_chat._anthropic_blocks).
    from pathlib import Path

    sample = Path(__file__).parent / "data_hardening20_formats" / "cursor_agent_transcript.jsonl"
    lines = [json.loads(line) for line in sample.read_text().splitlines() if line.strip()]
    lines[1]["message"]["content"][0]["type"] = odd_type
    path = tmp_path / "agent-transcript.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert "ls -la /tmp" in [c["command"] for c in doc["commands"]]
