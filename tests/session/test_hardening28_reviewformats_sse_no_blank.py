"""A saved stream's ``data:`` lines with no blank line between them (``grep '^data:' stream.txt``,
a proxy's log): each line is an event. Joined as one event's data (the SSE rule for lines of one
event), they were one broken JSON: a Chat Completions stream gave no event at all, a Responses
stream no command. An event whose JSON spans several data: lines is still joined."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

SSH = "ssh gpu-node-3 nvidia-smi"
ARGS = json.dumps({"command": SSH})


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1767225600, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def test_chat_chunks_grepped_out_of_a_stream_are_read(tmp_path):
    chunks = [_chunk({"role": "assistant", "content": "Checking."}),
              _chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                      "function": {"name": "bash", "arguments": ARGS[:9]}}]}),
              _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ARGS[9:]}}]}), _chunk({}, "tool_calls")]
    path = tmp_path / "grepped.txt"
    path.write_text("".join(f"data: {json.dumps(c)}\n" for c in chunks) + "data: [DONE]\n")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]
    assert doc["sessions"][0]["broken_json"] == 0


def test_an_event_spread_over_data_lines_is_still_joined(tmp_path):
    call = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
            "arguments": ARGS}
    event = json.dumps({"type": "response.output_item.done", "sequence_number": 0, "output_index": 0, "item": call},
                       indent=1)
    path = tmp_path / "stream.txt"
    data = "".join(f"data: {line}\n" for line in event.splitlines())
    path.write_text(f"event: response.output_item.done\n{data}\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == [SSH]


def test_events_named_by_their_event_lines_keep_their_names_with_no_blank_lines(tmp_path):
    # a proxy's events typed by their event: lines alone (data with no "type"), saved with no blank line
    call = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
            "arguments": ARGS}
    path = tmp_path / "proxy.txt"
    path.write_text(f"event: response.output_item.done\ndata: {json.dumps({'item': call})}\n"
                    "event: response.completed\ndata: {}\n")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]
    assert doc["sessions"][0]["unknown_types"] == 0
