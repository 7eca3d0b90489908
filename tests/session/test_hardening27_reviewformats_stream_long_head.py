"""The OpenAI SDK dumps a Responses stream event with its type last (``ev.model_dump_json()``:
pydantic's field order, ``ResponseCreatedEvent{response, sequence_number, type}``), and the first
events carry the whole response, instructions and tools included: often past 64 KB. The stream
was told from the first 64 KB only, so such a dump was read as chat messages, its calls lost."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

RESPONSE = {"id": "resp_1", "created_at": 1767225600, "instructions": "You are a coding agent. " * 4000,
            "model": "gpt-5.1-codex", "object": "response", "output": [], "tools": []}
SHELL = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
         "arguments": json.dumps({"command": ["bash", "-lc", "nvidia-smi"]})}
EVENTS = [{"response": RESPONSE, "sequence_number": 0, "type": "response.created"},
          {"response": RESPONSE, "sequence_number": 1, "type": "response.in_progress"},
          {"item": SHELL, "output_index": 0, "sequence_number": 2, "type": "response.output_item.done"},
          {"response": {**RESPONSE, "output": [SHELL]}, "sequence_number": 3, "type": "response.completed"}]


def test_an_sdk_dump_whose_first_events_pass_64_kb_is_a_stream(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in EVENTS))
    assert path.stat().st_size > 3 * 65536
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["format"] == "openai"
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]
