"""A saved event stream that a Windows editor saved as UTF-8 with a byte-order mark: the mark
opens its first line, ``\\ufeffdata: {...}``. :func:`responses_stream.head_of` drops it, so the
file is sniffed as a stream, but the record reader took that line for no ``data:`` line and lost
the first event: a Responses stream of one call gave no command, a Chat Completions stream whose
first chunk opened a call kept only the call's later pieces (``mand": "ssh ...`` as its command)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

SSH = "ssh gpu-node-3 nvidia-smi"
ARGS = json.dumps({"command": SSH})


def _sse(records: list[dict]) -> str:
    return "\ufeff" + "".join(f"data: {json.dumps(r)}\n\n" for r in records) + "data: [DONE]\n\n"


def _chunk(piece: dict, finish: str | None = None) -> dict:
    # a server that sends no index and repeats the call's id in each piece (formats.chat_stream)
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1767225600,
            "choices": [{"index": 0, "delta": {"tool_calls": [piece]} if piece else {}, "finish_reason": finish}]}


def test_a_responses_stream_saved_with_a_bom_keeps_its_first_event(tmp_path):
    call = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
            "arguments": ARGS}
    path = tmp_path / "stream.txt"
    path.write_text(_sse([{"type": "response.output_item.done", "sequence_number": 0, "output_index": 0,
                           "item": call}]), encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]


def test_a_chat_stream_saved_with_a_bom_keeps_its_first_chunk(tmp_path):
    pieces = [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": ARGS[:5]}},
              {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": ARGS[5:]}}]
    path = tmp_path / "stream.txt"
    path.write_text(_sse([_chunk(p) for p in pieces] + [_chunk({}, "tool_calls")]), encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]
