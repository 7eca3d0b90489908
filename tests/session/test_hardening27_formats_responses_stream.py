"""A Responses API stream saved to a file (``curl -N`` of a ``"stream": true`` request: server-sent
events, ``event: response.output_item.done`` / ``data: {...}``; or the SDK's events dumped one JSON
a line) is read: its items' calls and replies once each (``response.completed`` repeats them), a
failed response an error of the session. Before: a text log of one event, or Claude Code records of
unknown types; no command, no error. Event shapes: openai/openai-python ``types/responses``."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

SSH = "ssh gpu-node-3 nvidia-smi"
SHELL = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
         "arguments": json.dumps({"command": ["bash", "-lc", SSH]})}
REPLY = {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "The node refuses SSH.", "annotations": []}]}
FAILED = {"code": "server_error", "message": "The server had an error while processing your request."}


def _event(kind: str, **fields) -> dict:
    return {"type": kind, **fields}


EVENTS = [
    _event("response.created", sequence_number=0, response={"id": "resp_1", "object": "response", "output": [],
                                                            "created_at": 1767225600, "model": "gpt-5.1-codex"}),
    _event("response.output_item.added", sequence_number=1, output_index=0, item={**SHELL, "arguments": ""}),
    _event("response.function_call_arguments.delta", sequence_number=2, item_id="fc_1", delta=SHELL["arguments"]),
    _event("response.output_item.done", sequence_number=3, output_index=0, item=SHELL),
    _event("response.output_text.delta", sequence_number=4, item_id="msg_1", delta="The node refuses SSH."),
    _event("response.output_item.done", sequence_number=5, output_index=1, item=REPLY),
    _event("response.completed", sequence_number=6, response={"id": "resp_1", "object": "response",
                                                              "created_at": 1767225600, "output": [SHELL, REPLY]}),
    _event("response.created", sequence_number=0, response={"id": "resp_2", "created_at": 1767225660, "output": []}),
    _event("response.output_text.delta", sequence_number=1, item_id="msg_2", delta="Retrying the"),
    _event("response.failed", sequence_number=2, response={"id": "resp_2", "output": [], "error": FAILED}),
]


def _sse(events: list[dict]) -> str:
    head = "HTTP/2 200\r\ncontent-type: text/event-stream; charset=utf-8\r\n\r\n"  # curl -i
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e, separators=(',', ':'))}\n\n" for e in events)
    return head + body + "data: [DONE]\n\n"


@pytest.mark.parametrize("name, text", [
    ("stream.txt", _sse(EVENTS)),
    ("events.jsonl", "".join(json.dumps(e) + "\n" for e in EVENTS)),
], ids=["curl-sse", "sdk-jsonl"])
def test_a_saved_responses_stream_is_read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["format"], session["unknown_types"], session["broken_json"]) == ("openai", 0, 0)
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2026-01-01T00:00:00.000Z",
                                                                        "2026-01-01T00:01:00.000Z")
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [(SSH, "gpu-node-3")]  # once, not twice
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("agent_error", f"server_error: {FAILED['message']}")]


def test_a_stream_cut_inside_a_reply_keeps_its_text(tmp_path):
    from spec_debug.session.events import ReadStats
    from spec_debug.session.formats.common import Cursor
    from spec_debug.session.formats.responses_stream import read

    path = tmp_path / "cut.log"
    path.write_text(_sse(EVENTS[:5]).removesuffix("data: [DONE]\n\n"))
    events = list(read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))
    assert [e.text for e in events if e.kind == "text"] == ["The node refuses SSH."]
    assert [e.seq for e in events] == sorted(e.seq for e in events)


def test_a_chat_completions_stream_is_not_taken_for_one(tmp_path):
    # read as chunks (formats.chat_stream: tests/session/test_hardening28_formats_chat_stream.py), no Responses event
    from spec_debug.session.formats import responses_stream

    path = tmp_path / "chat.txt"
    chunk = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "hi"}}]}
    path.write_text(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n")
    assert responses_stream.layout(path) == responses_stream.Layout(sse=True, chat=True)


def test_a_folder_scan_reads_a_saved_sse_file(tmp_path):
    (tmp_path / "run.sse").write_text(_sse(EVENTS))
    (session,) = analyze_path(tmp_path).to_json()["sessions"]
    assert (session["id"], session["format"]) == ("run", "openai")


def test_an_event_whose_data_has_no_type_takes_its_event_line(tmp_path):
    path = tmp_path / "proxy.txt"
    item = json.dumps({"item": SHELL})
    path.write_text(f"event: response.output_item.done\ndata: {item}\n\nevent: response.completed\ndata: {{}}\n\n")
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["unknown_types"] == 0
    assert [c["command"] for c in doc["commands"]] == [SSH]


def test_a_stream_powershell_saved_as_utf16_is_read(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text(_sse(EVENTS).replace("\r\n", "\n").replace("\n", "\r\n"), encoding="utf-16")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]


@pytest.mark.parametrize("fmt", ["codex", "claude-code"])
def test_a_json_format_forced_on_a_saved_stream_is_refused(tmp_path, fmt):
    from spec_debug.errors import UsageError

    path = tmp_path / "stream.txt"
    path.write_text(_sse(EVENTS))
    with pytest.raises(UsageError, match="Responses API event stream"):
        analyze_path(path, input_format=fmt)
