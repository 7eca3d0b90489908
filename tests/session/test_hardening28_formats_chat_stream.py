"""A Chat Completions stream saved to a file (``curl -N`` of a ``"stream": true`` request to
``/v1/chat/completions``: ``data: {"object": "chat.completion.chunk", ...}`` lines and ``data: [DONE]``;
or the SDK's chunks dumped one JSON a line) is read: one assistant message per completion, its tool
calls put together from their pieces by index (openai/openai-python ``lib/streaming/chat``). Before:
the SSE file was a text log of one event and no command; the JSONL file was refused as "not a
session transcript". Chunk shapes: openai/openai-python ``types/chat/chat_completion_chunk.py``."""

from __future__ import annotations

import json

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import responses_stream
from spec_debug.session.formats.common import Cursor

NVIDIA = json.dumps({"command": "ssh gpu-node-3 nvidia-smi"})
TAIL = json.dumps({"command": "ssh gpu-node-4 'tail -n 50 /var/log/sglang.log'"})


def _chunk(cid: str, delta: dict, finish: str | None = None, created: int = 1767225600) -> dict:
    return {"id": cid, "object": "chat.completion.chunk", "created": created, "model": "Qwen/Qwen3-32B",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}


def _calls(*pieces: tuple[int, dict]) -> dict:
    return {"tool_calls": [{"index": i, **piece} for i, piece in pieces]}


CHUNKS = [
    _chunk("chatcmpl-1", {"role": "assistant", "content": ""}),
    _chunk("chatcmpl-1", {"reasoning_content": "Check both nodes."}),
    _chunk("chatcmpl-1", _calls((0, {"id": "call_a", "type": "function",
                                     "function": {"name": "bash", "arguments": NVIDIA[:9]}}))),
    _chunk("chatcmpl-1", _calls((1, {"id": "call_b", "type": "function",
                                     "function": {"name": "bash", "arguments": ""}}))),
    _chunk("chatcmpl-1", _calls((0, {"function": {"arguments": NVIDIA[9:]}}), (1, {"function": {"arguments": TAIL}}))),
    _chunk("chatcmpl-1", {}, "tool_calls"),
    {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1767225600, "choices": [],
     "usage": {"prompt_tokens": 812, "completion_tokens": 41, "total_tokens": 853}},  # stream_options.include_usage
    _chunk("chatcmpl-2", {"role": "assistant", "content": "gpu-node-4 "}, created=1767225660),
    _chunk("chatcmpl-2", {"content": "lost its drafter."}, created=1767225660),
    _chunk("chatcmpl-2", {}, "stop", created=1767225660),
]


def _sse(records: list[dict], done: bool = True) -> str:
    body = "".join(f"data: {json.dumps(r, separators=(',', ':'))}\n\n" for r in records)
    return body + ("data: [DONE]\n\n" if done else "")


@pytest.mark.parametrize("name, text", [
    ("stream.txt", _sse(CHUNKS)),
    ("chunks.jsonl", "".join(json.dumps(c) + "\n" for c in CHUNKS)),
], ids=["curl-sse", "sdk-jsonl"])
def test_a_saved_chat_completions_stream_is_read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["format"], session["unknown_types"], session["broken_json"]) == ("openai", 0, 0)
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2026-01-01T00:00:00.000Z",
                                                                        "2026-01-01T00:01:00.000Z")
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("ssh gpu-node-3 nvidia-smi", "gpu-node-3"), ("ssh gpu-node-4 'tail -n 50 /var/log/sglang.log'", "gpu-node-4")]


def _events(path):
    return list(responses_stream.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))


def test_each_completion_is_one_assistant_message_at_its_first_chunk(tmp_path):
    path = tmp_path / "stream.txt"
    path.write_text(_sse(CHUNKS))
    events = _events(path)
    assert [(e.seq, e.line, e.kind, e.call_id, e.text) for e in events] == [
        (0, 1, "thinking", None, "Check both nodes."),
        (0, 1, "tool_call", "call_a", "ssh gpu-node-3 nvidia-smi"),
        (0, 1, "tool_call", "call_b", "ssh gpu-node-4 'tail -n 50 /var/log/sglang.log'"),
        (7, 15, "text", None, "gpu-node-4 lost its drafter."),
    ]


def test_a_cut_stream_keeps_what_it_had_and_a_failed_one_says_so(tmp_path):
    failed = {"error": {"message": "upstream connect error", "type": "server_error", "code": None}}
    path = tmp_path / "cut.sse"
    path.write_text(_sse(CHUNKS[:3] + [failed] + [_chunk("chatcmpl-3", {"content": "Restarting the ser"})], done=False))
    events = _events(path)
    assert [(e.kind, e.raw_type, e.text) for e in events] == [
        ("thinking", None, "Check both nodes."),
        ("tool_call", None, NVIDIA[:9]),  # its arguments cut: the call kept, no command
        ("system", "error", "server_error: upstream connect error"),
        ("text", None, "Restarting the ser"),
    ]
    doc = analyze_path(path).to_json()
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("agent_error", "server_error: upstream connect error")]


def test_a_json_format_forced_on_a_chat_stream_is_refused_by_its_name(tmp_path):
    path = tmp_path / "stream.txt"
    path.write_text(_sse(CHUNKS))
    with pytest.raises(UsageError, match="OpenAI Chat Completions event stream"):
        analyze_path(path, input_format="codex")


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_a_saved_stream_is_sniffed_once(tmp_path, monkeypatch, api):
    # one look at the head decides SSE or JSONL, chat or Responses (was: is_stream, then read looked again)
    heads = []
    real = responses_stream.read_head
    monkeypatch.setattr(responses_stream, "read_head", lambda *a, **kw: heads.append(a[0]) or real(*a, **kw))
    call = {"id": "fc_1", "type": "function_call", "status": "completed", "name": "shell", "call_id": "call_1",
            "arguments": NVIDIA}
    responses = [{"type": "response.output_item.done", "sequence_number": 0, "output_index": 0, "item": call}]
    path = tmp_path / "stream.txt"
    path.write_text(_sse(CHUNKS if api == "chat" else responses))
    doc = analyze_path(path).to_json()
    assert doc["commands"][0]["command"] == "ssh gpu-node-3 nvidia-smi" and heads == [path]


def test_odd_pieces_are_passed_over_not_fatal(tmp_path):
    # a proxy's damaged chunk: tool_calls not a list, an index not a number, no id
    odd = [{**_chunk("", {"tool_calls": 7}), "id": None},
           {**_chunk("", {"content": "gpu-node-3 is up"}), "id": None, "choices": [{"index": [], "delta": {}}]},
           {**_chunk("", {"content": "gpu-node-3 is up"}), "id": None}]
    path = tmp_path / "odd.sse"
    path.write_text(_sse(odd))
    assert [(e.kind, e.text) for e in _events(path)] == [("text", "gpu-node-3 is up")]


def test_a_log_of_requests_with_their_chunks_keeps_its_prompts(tmp_path):
    # an agent loop's log: each request body, then the chunks of its answer (read as chat, as before)
    request = {"model": "Qwen/Qwen3-32B", "stream": True, "messages": [
        {"role": "system", "content": "You debug inference servers."},
        {"role": "user", "content": "Why is EAGLE-3 slower on gpu-node-3?"}]}
    path = tmp_path / "loop.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [request, *CHUNKS]))
    assert responses_stream.layout(path) is None
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["Why is EAGLE-3 slower on gpu-node-3?"]
