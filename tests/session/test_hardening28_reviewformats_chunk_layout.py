"""Which JSONL file is a Chat Completions chunk stream (responses_stream.layout). A file whose first
record is a chunk but whose later records are chat messages was read as chunks alone, its messages
dropped as unknown records (read as chat before 4b7fab1a: the prompt and the command kept); a
stream whose first line is cut or damaged was no stream (a broken line counted as a record that
is no chunk): every chunk an unknown record, no command."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from spec_debug.session.formats import responses_stream

SSH = "ssh gpu-node-3 nvidia-smi"


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1767225600, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


CHUNKS = [_chunk({"role": "assistant", "content": "Checking."}),
          _chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                  "function": {"name": "bash", "arguments": json.dumps({"command": SSH})}}]}),
          _chunk({}, "tool_calls")]
MESSAGES = [{"role": "user", "content": "Why is EAGLE-3 slow on gpu-node-3?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "t1", "type": "function",
                 "function": {"name": "bash", "arguments": json.dumps({"command": SSH})}}]},
            {"role": "tool", "tool_call_id": "t1", "content": "GPU 0: H200"}]


def _jsonl(tmp_path, head: str, records: list[dict]):
    path = tmp_path / "log.jsonl"
    path.write_text(head + "".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_chunk_then_chat_messages_is_read_as_chat(tmp_path):
    path = _jsonl(tmp_path, "", [CHUNKS[0], *MESSAGES])
    assert responses_stream.layout(path) is None
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [MESSAGES[0]["content"]]
    assert [c["command"] for c in doc["commands"]] == [SSH]


def test_a_chunk_stream_whose_first_line_is_cut_is_read(tmp_path):
    path = _jsonl(tmp_path, '"delta": {"content": "Chec"}, "finish_reason": null}]}\n', CHUNKS)  # tail -c's first line
    assert responses_stream.layout(path) == responses_stream.Layout(sse=False, chat=True)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]
    assert doc["sessions"][0]["broken_json"] == 1


def test_a_chunk_stream_and_a_request_log_keep_their_layouts(tmp_path):
    assert responses_stream.layout(_jsonl(tmp_path, "", CHUNKS)) == responses_stream.Layout(sse=False, chat=True)
    request = {"model": "m", "stream": True, "messages": MESSAGES[:1]}
    assert responses_stream.layout(_jsonl(tmp_path, "", [request, *CHUNKS])) is None
