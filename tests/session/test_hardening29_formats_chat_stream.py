"""Chat Completions streams saved to a file, as openai-python reads them (openai/openai-python
``src/openai/_streaming.py``: a stream ends at ``data: [DONE]``; ``lib/streaming/chat``: one
completion's chunks put together). Before: two completions under one chunk id (a server or proxy
that sends the same id in every answer, two ``curl -N`` runs appended to one file) were one
message, the second answer's call pieces glued onto the first's (its command lost); the chunks
saved as one JSON array (``json.dump`` of the SDK's list, ``jq -s .``) or indented (``jq .``)
were a text log or unknown records: no command. A Responses stream saved with no blank lines
parsed each event's JSON twice (once to see it was whole, once to read it)."""

from __future__ import annotations

import json
import types

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import responses_stream
from spec_debug.session.formats.common import Cursor

NVIDIA = "ssh gpu-node-3 nvidia-smi"
UPTIME = "ssh gpu-node-4 uptime"


def _chunk(cid: str, delta: dict, finish: str | None = None) -> dict:
    # openai/openai-python types/chat/chat_completion_chunk.py
    return {"id": cid, "object": "chat.completion.chunk", "created": 1767225600, "model": "llama3.1",
            "system_fingerprint": "fp_ollama",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _answer(cid: str, command: str, call_id: str) -> list[dict]:
    args = json.dumps({"command": command})
    return [_chunk(cid, {"role": "assistant", "content": ""}),
            _chunk(cid, {"tool_calls": [{"index": 0, "id": call_id, "type": "function",
                                         "function": {"name": "bash", "arguments": args[:12]}}]}),
            _chunk(cid, {"tool_calls": [{"index": 0, "function": {"arguments": args[12:]}}]}),
            _chunk(cid, {}, "tool_calls")]


FIRST, SECOND = _answer("chatcmpl-123", NVIDIA, "call_1"), _answer("chatcmpl-123", UPTIME, "call_2")


def _sse(chunks: list[dict], gap: str = "\n") -> str:
    return "".join(f"data: {json.dumps(c)}\n{gap}" for c in chunks) + f"data: [DONE]\n{gap}"


@pytest.mark.parametrize("name, text", [
    ("two_curls.txt", _sse(FIRST) + _sse(SECOND)),
    ("grepped.txt", _sse(FIRST, gap="") + _sse(SECOND, gap="")),  # grep '^data:': no blank lines
    # no [DONE]: the finished choice speaks again
    ("dumped.jsonl", "".join(json.dumps(c) + "\n" for c in FIRST + SECOND)),
], ids=["sse", "sse-no-blank-lines", "sdk-jsonl"])
def test_two_completions_under_one_chunk_id_are_two_answers(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [(NVIDIA, "gpu-node-3"), (UPTIME, "gpu-node-4")]
    assert (doc["sessions"][0]["broken_json"], doc["sessions"][0]["unknown_types"]) == (0, 0)


def test_empty_pieces_after_the_end_stay_with_their_completion(tmp_path):
    # Azure OpenAI's content-filter chunks come after finish_reason with an empty delta: no new answer
    trailing = _chunk("chatcmpl-9", {})
    trailing["choices"][0]["content_filter_results"] = {"hate": {"filtered": False, "severity": "safe"}}
    path = tmp_path / "azure.txt"
    path.write_text(_sse(_answer("chatcmpl-9", NVIDIA, "call_1") + [trailing]))
    events = list(responses_stream.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))
    assert [(e.kind, e.call_id) for e in events] == [("tool_call", "call_1")]


@pytest.mark.parametrize("name, text", [
    ("chunks.json", json.dumps(FIRST)),  # json.dump(list_of_chunks): one line
    ("slurped.json", json.dumps(FIRST, indent=2)),  # jq -s . chunks.jsonl
    ("pretty.jsonl", "".join(json.dumps(c, indent=2) + "\n" for c in FIRST)),  # jq . chunks.jsonl
], ids=["array", "jq-slurp", "jq-pretty"])
def test_chunks_saved_as_one_array_or_indented_are_a_stream(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["format"], session["unknown_types"]) == ("openai", 0)
    assert [c["command"] for c in doc["commands"]] == [NVIDIA]


def test_a_responses_event_saved_with_no_blank_line_is_parsed_once(tmp_path, monkeypatch):
    calls = [{"id": f"fc_{i}", "type": "function_call", "status": "completed", "name": "shell",
              "call_id": f"call_{i}", "arguments": json.dumps({"command": command})}
             for i, command in enumerate((NVIDIA, UPTIME))]
    events = [{"type": "response.output_item.done", "sequence_number": i, "output_index": i, "item": call}
              for i, call in enumerate(calls)]
    path = tmp_path / "proxy.log"
    path.write_text("".join(f"data: {json.dumps(e)}\n" for e in events))
    parses = []
    real = json.loads
    monkeypatch.setattr(responses_stream, "json", types.SimpleNamespace(
        loads=lambda text, *a, **kw: parses.append(text) or real(text, *a, **kw), dumps=json.dumps))
    stream = responses_stream.Layout(sse=True, chat=False)
    read = list(responses_stream.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats(), stream))
    assert [e.call_id for e in read if e.kind == "tool_call"] == ["call_0", "call_1"]
    assert len(parses) == len(events)
