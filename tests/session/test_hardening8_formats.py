"""Transcript shapes of current tools that the readers got wrong (hardening round 8).

Each data file under ``data_h8/formats/`` follows the shape its cited source shows; names,
hosts and outputs are ours. The README there lists the source of each shape.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

DATA = Path(__file__).resolve().parent / "data_h8" / "formats"


def _events(path: Path, fmt: str | None = None) -> tuple[list, ReadStats]:
    (source,) = discover(path, fmt)
    stats = ReadStats()
    return list(iter_events(source, stats, AgentTree())), stats


def _shape(events) -> list[tuple]:
    return [(e.seq, e.kind, e.role, e.call_id, e.command, e.exit_code, e.is_error) for e in events]


# -- OpenAI Responses API request and response objects ----------------------------------------


def test_a_saved_responses_api_request_reads_as_its_conversation():
    """``client.responses.create(model=..., instructions=..., input=[...])`` saved as its request
    body: the conversation is under ``input`` (openai/openai-python
    ``types/responses/response_create_params.py``). Before: read as Claude Code, one "other"
    event and nothing else (no prompt, no command, no error)."""
    events, stats = _events(DATA / "responses_request.json")
    assert _shape(events) == [
        (0, "system", "developer", None, None, None, False),
        (1, "prompt", "user", None, None, None, False),
        (2, "thinking", "assistant", None, None, None, False),
        (3, "tool_call", "assistant", "call_k2Xb", "ssh gpu01 'tail -n 3 /var/log/sglang/server.log'", None, False),
        (4, "tool_result", "tool", "call_k2Xb", None, 1, True),
        (5, "text", "assistant", None, None, None, False),
    ]
    assert stats.unknown_types == 0 and stats.lines_skipped == 0
    a = analyze_path(DATA / "responses_request.json")
    assert a.sessions[0]["format"] == "openai"
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("ssh gpu01 'tail -n 3 /var/log/sglang/server.log'", "gpu01", 1)]
    assert [p.text for p in a.prompts] == ["EAGLE-3 made serving slower on gpu01; find out why"]


def test_a_saved_responses_api_response_reads_as_its_output_items():
    """``response.model_dump_json(indent=2)``: ``{"object": "response", "output": [...]}``
    (openai/openai-python ``types/responses/response.py``). Before: read as Claude Code, nothing
    of the call."""
    events, stats = _events(DATA / "responses_response.json")
    assert [(e.seq, e.kind, e.call_id, e.command) for e in events] == [
        (0, "system", None, None), (1, "thinking", None, None),
        (2, "tool_call", "call_Q7rT", "ssh gpu01 'grep -m2 \"accept len\" /var/log/sglang.log'")]
    assert events[1].text == "The accept length is low; compare the draft's hidden-state layers."
    assert stats.unknown_types == 0


def test_responses_exchanges_one_a_line_and_one_longer_than_the_sniff_window(tmp_path):
    """A log of requests and responses, one JSON object a line; and a request whose first item
    (a pasted server log) is longer than the 256 KiB the format is sniffed from. Before: the
    first read as Claude Code, the second as a plain-text log of one line."""
    request = json.loads((DATA / "responses_request.json").read_text())
    response = json.loads((DATA / "responses_response.json").read_text())
    log = tmp_path / "exchanges.jsonl"
    log.write_text(json.dumps(request) + "\n" + json.dumps(response) + "\n")
    events, _ = _events(log)
    assert [(e.seq, e.kind, e.call_id) for e in events if e.call_id] == [
        (3, "tool_call", "call_k2Xb"), (4, "tool_result", "call_k2Xb"), (8, "tool_call", "call_Q7rT")]
    request["input"].insert(1, {"type": "function_call_output", "call_id": "call_log",
                                "output": "[2025-08-18 10:00:00] Decode batch, #running-req: 1\n" * 6000})
    for indent in (None, 2):
        big = tmp_path / f"big-{indent}.json"
        big.write_text(json.dumps(request, indent=indent))
        assert big.stat().st_size > 256 * 1024
        events, _ = _events(big)
        assert [(e.kind, e.call_id) for e in events if e.call_id] == [
            ("tool_result", "call_log"), ("tool_call", "call_k2Xb"), ("tool_result", "call_k2Xb")], indent


# -- OpenAI chat: a log of the requests an agent loop sent -------------------------------------


def test_a_log_of_requests_that_each_resend_the_history_reads_each_message_once():
    """An agent loop that logs each chat-completions request body it sends, one a line: the API is
    stateless, so every request carries the whole history again. Before: the first command
    appeared twice and the prompt three times (a command run once, read three times, is a loop)."""
    path = DATA / "chat_requests.jsonl"
    events, _ = _events(path)
    assert [(e.seq, e.block, e.kind, e.call_id) for e in events] == [
        (0, 0, "system", None), (1, 0, "prompt", None),
        (2, 0, "tool_call", "call_Vx1"), (3, 0, "tool_result", "call_Vx1"),
        (4, 0, "text", None), (4, 1, "tool_call", "call_Vx2"), (5, 0, "tool_result", "call_Vx2")]
    a = analyze_path(path)
    assert [(c.seq, c.command, c.exit_code) for c in a.commands] == [
        (2, "ssh gpu01 'curl -s localhost:30000/get_server_info'", 7),
        (4, "ssh gpu01 'journalctl -u sglang -n 2 --no-pager'", None)]
    assert len(a.prompts) == 1


def test_fine_tuning_lines_that_share_a_system_prompt_stay_whole(tmp_path):
    """Fine-tuning data: one conversation a line, each with the same system message (OpenAI
    fine-tuning guide, chat format). No line's conversation is the head of the next, so none is
    cut."""
    system = {"role": "system", "content": "You are a GPU fleet assistant."}
    lines = [{"messages": [system, {"role": "user", "content": f"is gpu0{n} up?"},
                           {"role": "assistant", "content": f"gpu0{n} is up."}]} for n in (1, 2)]
    path = tmp_path / "train.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    events, _ = _events(path)
    assert [(e.seq, e.kind, e.text) for e in events] == [
        (0, "system", "You are a GPU fleet assistant."), (1, "prompt", "is gpu01 up?"), (2, "text", "gpu01 is up."),
        (3, "system", "You are a GPU fleet assistant."), (4, "prompt", "is gpu02 up?"), (5, "text", "gpu02 is up.")]
