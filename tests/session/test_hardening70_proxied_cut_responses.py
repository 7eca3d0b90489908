"""A Responses API stream a logging proxy kept as text, cut inside a reply (the person stopped Codex
while it wrote, or the connection dropped): no ``response.output_item.done`` came for the message, only
its ``response.output_text.delta`` pieces (openai/openai-python ``types/responses/
response_text_delta_event.py``: ``{item_id, output_index, content_index, delta}``). A saved stream
keeps such a reply's text (formats.responses_stream, ``cut_replies``); read from a proxy's record,
what the agent was saying when the log ends was lost."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

PIECES = ["The draft model on gpu07 ", "was built for another ", "tokenizer: its vocabulary "]


def _cut_stream(done_too: bool = False) -> str:
    item = {"id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    events: list[dict] = [
        {"type": "response.created", "sequence_number": 0, "response": {
            "id": "resp_1", "object": "response", "created_at": 1764930080, "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item},
        {"type": "response.content_part.added", "sequence_number": 2, "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}},
    ]
    events += [{"type": "response.output_text.delta", "sequence_number": 3 + n, "item_id": "msg_1",
                "output_index": 0, "content_index": 0, "delta": piece} for n, piece in enumerate(PIECES)]
    if done_too:
        whole = {**item, "status": "completed",
                 "content": [{"type": "output_text", "text": "".join(PIECES), "annotations": []}]}
        events.append({"type": "response.output_item.done", "sequence_number": 9, "output_index": 0, "item": whole})
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


def _texts(tmp_path: Path, answer: str) -> list[str]:
    body = {"model": "gpt-5-codex", "instructions": "You are Codex.", "stream": True, "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "why is acceptance low?"}]}]}
    record = {"request": {"method": "POST", "url": "http://127.0.0.1:8080/v1/responses", "headers": {}, "body": body},
              "response": {"status_code": 200, "headers": {"content-type": "text/event-stream"}, "body": answer,
                           "error": None}}
    path = tmp_path / "2025-12-05_10-21-20-000000.json"
    path.write_text(json.dumps(record))
    [source] = discover(path)
    return [ev.text for ev in iter_events(source, ReadStats(), AgentTree()) if ev.kind == "text"]


def test_a_reply_the_stream_was_cut_inside_is_kept(tmp_path: Path) -> None:
    assert _texts(tmp_path, _cut_stream()) == ["".join(PIECES)]


def test_a_reply_that_ended_is_read_once(tmp_path: Path) -> None:
    assert _texts(tmp_path, _cut_stream(done_too=True)) == ["".join(PIECES)]


def test_a_response_that_ended_with_items_of_no_id_is_read_once(tmp_path: Path) -> None:
    """A server that names no item in its last event's output: the pieces are the same reply."""
    ended = {"type": "response.completed", "sequence_number": 9, "response": {
        "id": "resp_1", "object": "response", "created_at": 1764930080, "status": "completed",
        "output": [{"type": "message", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "".join(PIECES), "annotations": []}]}]}}
    answer = _cut_stream() + f"event: response.completed\ndata: {json.dumps(ended)}\n\n"
    assert _texts(tmp_path, answer) == ["".join(PIECES)]
