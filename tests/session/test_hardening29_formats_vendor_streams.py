"""Streams of other vendors' APIs saved to a file are read as the assistant messages they spell,
calls included. An Anthropic Messages API stream (``curl -N`` of ``/v1/messages`` with ``"stream":
true``, or the SDK's events dumped one a line): put together as anthropic-sdk-python's
``MessageStream`` does (``lib/streaming/_messages.py``, ``accumulate_event``). Ollama's
``/api/chat`` stream (ollama/ollama ``docs/api.md``): its pieces up to ``"done": true``. Before:
the SSE file was a text log of one event, the JSONL files were read as Claude Code records, every
line an unknown type: no command at all."""

from __future__ import annotations

import json

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import responses_stream
from spec_debug.session.formats.common import Cursor

SSH = "ssh gpu-node-3 'tail -n 50 /var/log/sglang.log'"
INPUT = json.dumps({"command": SSH, "description": "Read the server log"})


def _delta(index: int, delta: dict) -> dict:
    return {"type": "content_block_delta", "index": index, "delta": delta}


# The event shapes of Anthropic's "Streaming Messages" docs (extended thinking and tool use)
MESSAGE = [
    {"type": "message_start", "message": {
        "id": "msg_01Aq9w938a90dw8q", "type": "message", "role": "assistant", "content": [],
        "model": "claude-sonnet-4-5", "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 2}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
    _delta(0, {"type": "thinking_delta", "thinking": "The drafter may not "}),
    _delta(0, {"type": "thinking_delta", "thinking": "be loaded."}),
    _delta(0, {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}),
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "ping"},
    _delta(1, {"type": "text_delta", "text": "Checking the server "}),
    _delta(1, {"type": "text_delta", "text": "log on gpu-node-3."}),
    {"type": "content_block_stop", "index": 1},
    {"type": "content_block_start", "index": 2,
     "content_block": {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "Bash", "input": {}}},
    _delta(2, {"type": "input_json_delta", "partial_json": ""}),
    _delta(2, {"type": "input_json_delta", "partial_json": INPUT[:17]}),
    _delta(2, {"type": "input_json_delta", "partial_json": INPUT[17:]}),
    {"type": "content_block_stop", "index": 2},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
     "usage": {"output_tokens": 89}},
    {"type": "message_stop"},
]


def _sse(events: list[dict]) -> str:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


def _events(path):
    return list(responses_stream.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))


@pytest.mark.parametrize("name, text", [
    ("messages.txt", _sse(MESSAGE)),
    ("events.jsonl", "".join(json.dumps(e) + "\n" for e in MESSAGE)),
    ("events.json", json.dumps(MESSAGE)),  # json.dump of the events as a list (its ping and message_stop too)
], ids=["curl-sse", "sdk-jsonl", "json-array"])
def test_an_anthropic_messages_stream_is_one_assistant_message(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["unknown_types"], session["broken_json"]) == (0, 0)
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [(SSH, "gpu-node-3")]
    assert [(e.kind, e.text if e.kind != "tool_call" else e.call_id) for e in _events(path)] == [
        ("thinking", "The drafter may not be loaded."),
        ("text", "Checking the server log on gpu-node-3."),
        ("tool_call", "toolu_01T1x1fJ34qAmk2tNTrN7Up6"),
    ]


def test_a_cut_or_failed_anthropic_stream_keeps_what_it_had(tmp_path):
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    path = tmp_path / "cut.txt"
    path.write_text(_sse(MESSAGE[:14] + [overloaded]))  # cut inside the call's input
    events = _events(path)
    assert [(e.kind, e.raw_type, e.command) for e in events] == [
        ("thinking", None, None), ("text", None, None),
        ("tool_call", None, None),  # its input cut: the call kept, no command
        ("system", "error", None),
    ]
    assert events[-1].text == "overloaded_error: Overloaded"


def test_a_json_format_forced_on_an_anthropic_stream_is_refused_by_its_name(tmp_path):
    path = tmp_path / "messages.txt"
    path.write_text(_sse(MESSAGE))
    with pytest.raises(UsageError, match="Anthropic Messages API event stream"):
        analyze_path(path, input_format="codex")


def _piece(message: dict | None, done: bool = False, at: str = "2025-06-01T10:00:00.1Z", **last) -> dict:
    piece = {"model": "qwen3:32b", "created_at": at}
    if message is not None:
        piece["message"] = {"role": "assistant", **message}
    return {**piece, "done": done, **last}


OLLAMA = [
    _piece({"content": "", "thinking": "The log "}),
    _piece({"content": "", "thinking": "will say."}),
    _piece({"content": "Reading "}),
    _piece({"content": "the log."}),
    _piece({"content": "", "tool_calls": [{"function": {"name": "bash", "arguments": {"command": SSH}}}]}),
    _piece({"content": ""}, True, done_reason="stop", total_duration=4883583458, eval_count=282),
    _piece({"content": "The drafter "}, at="2025-06-01T10:01:00.1Z"),
    _piece({"content": "failed to load."}, at="2025-06-01T10:01:00.2Z"),
    _piece(None, True, at="2025-06-01T10:01:00.3Z", total_duration=8113331500),  # older servers: no message
    {"error": "model requires more system memory (34.1 GiB) than is available (30.2 GiB)"},
]


@pytest.mark.parametrize("name, text", [
    ("ollama.jsonl", "".join(json.dumps(p) + "\n" for p in OLLAMA)),
    ("ollama.json", json.dumps(OLLAMA, indent=2)),  # the pieces kept as one list (an error among them)
], ids=["jsonl", "json-array"])
def test_an_ollama_chat_stream_is_one_assistant_message_per_answer(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["format"], session["unknown_types"]) == ("openai", 0)
    assert [c["command"] for c in doc["commands"]] == [SSH]
    events = _events(path)
    assert [(e.kind, e.text if e.kind != "tool_call" else e.command) for e in events] == [
        ("thinking", "The log will say."),
        ("text", "Reading the log."),
        ("tool_call", SSH),
        ("text", "The drafter failed to load."),
        ("system", "error: model requires more system memory (34.1 GiB) than is available (30.2 GiB)"),
    ]
    if name.endswith(".jsonl"):
        assert [e.line for e in events] == [1, 1, 1, 7, 10]  # each answer at its first piece


@pytest.mark.parametrize("reason", [["max_tokens"], {"type": "refusal"}, "refusal"])
def test_a_stop_reason_of_any_shape_is_no_traceback(tmp_path, reason):
    # a damaged message_delta's list or object stop_reason was a TypeError (unhashable) that ended the analysis
    ending = {"type": "message_delta", "delta": {"stop_reason": reason}, "usage": {"output_tokens": 89}}
    path = tmp_path / "messages.txt"
    path.write_text(_sse(MESSAGE[:-2] + [ending, MESSAGE[-1]]))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [SSH]
    said = [e.text for e in _events(path) if e.raw_type == "warning"]
    assert said == (["message stopped: refusal"] if reason == "refusal" else [])


def test_a_server_tool_in_an_anthropic_stream_is_a_call_and_its_result(tmp_path):
    # the web search tool's streamed blocks (Anthropic docs, "Web search tool", streaming): the call's
    # input in input_json_delta pieces, the result block given whole; both were dropped without a word
    srv = "srvtoolu_014hJH82Qum7Td6UV8gDXThB"
    search = [
        MESSAGE[0],
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "server_tool_use", "id": srv, "name": "web_search", "input": {}}},
        _delta(0, {"type": "input_json_delta", "partial_json": '{"query": "sglang eagle3 accept length low"}'}),
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {
            "type": "web_search_tool_result", "tool_use_id": srv, "content": [
                {"type": "web_search_result", "title": "EAGLE-3 accept length", "url": "https://docs.sglang.ai/spec",
                 "encrypted_content": "EqgfCioIARgBIiQ3YTAw", "page_age": "April 30, 2025"}]}},
        {"type": "content_block_stop", "index": 1},
        MESSAGE[-2], MESSAGE[-1],
    ]
    path = tmp_path / "search.txt"
    path.write_text(_sse(search))
    events = _events(path)
    assert [(e.kind, e.tool_name, e.call_id, e.text) for e in events] == [
        ("tool_call", "web_search", srv, "sglang eagle3 accept length low"),
        ("tool_result", None, srv, "EAGLE-3 accept length https://docs.sglang.ai/spec"),
    ]
    assert analyze_path(path).to_json()["commands"] == []  # run by the API, on no host of the user's
