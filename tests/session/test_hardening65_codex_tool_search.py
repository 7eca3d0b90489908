"""Newer Codex CLIs (and the Responses API's ``tool_search`` tool) look up the tools a session
has deferred before calling one: a ``tool_search_call{call_id, execution, arguments: {query,
limit}}`` item answered by ``tool_search_output{call_id, status, execution, tools: [...]}``
(openai/codex ``codex-rs/protocol/src/models.rs`` ``ResponseItem::ToolSearchCall`` /
``ToolSearchOutput``; both persisted, ``codex-rs/rollout/src/policy.rs``). Both were unknown
items: the search was no tool call of the agent, and a rollout of a current CLI reported
"unknown line types" for lines it writes every session. The server-run search has ``call_id:
null`` on both items; its output answers the search before it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor

T = "019c0000-0000-7000-8000-000000000065"


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-11-02T08:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _rollout(tmp_path: Path, items: list[dict]) -> Path:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/srv/bench", "originator": "codex_cli_rs", "cli_version": "0.160.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.3-codex", "cwd": "/srv/bench"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "find the grafana dashboard for gpu01"}]}),
    ] + [_rl(3 + i, "response_item", item) for i, item in enumerate(items)]
    path = tmp_path / f"rollout-2026-11-02T08-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


SEARCH = {"type": "tool_search_call", "call_id": "ts_call_1", "status": "completed", "execution": "client",
          "arguments": {"query": "grafana dashboards", "limit": 2}}
FOUND = {"type": "tool_search_output", "call_id": "ts_call_1", "status": "completed", "execution": "client",
         "tools": [{"type": "namespace", "name": "mcp__grafana__", "description": "Grafana",
                    "tools": [{"type": "function", "name": "search_dashboards", "parameters": {}},
                              {"type": "function", "name": "get_panel", "parameters": {}}]}]}
MCP_CALL = {"type": "function_call", "namespace": "mcp__grafana__", "name": "search_dashboards", "call_id": "c2",
            "arguments": json.dumps({"query": "gpu01"})}
MCP_OUT = {"type": "function_call_output", "call_id": "c2", "output": "[{\"uid\": \"gpu01-sglang\"}]"}


def _events(path: Path):
    stats = ReadStats()
    return list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), stats)), stats


def test_a_tool_search_is_a_call_answered_by_the_tools_it_found(tmp_path: Path) -> None:
    events, stats = _events(_rollout(tmp_path, [SEARCH, FOUND, MCP_CALL, MCP_OUT]))
    assert stats.unknown_types == 0
    calls = [(e.tool_name, e.call_id, e.text) for e in events if e.kind == "tool_call"]
    assert calls == [("tool_search", "ts_call_1", "grafana dashboards"),
                     ("mcp__grafana__search_dashboards", "c2", json.dumps({"query": "gpu01"}))]
    results = [(e.call_id, e.text, e.is_error) for e in events if e.kind == "tool_result"]
    assert results[0] == ("ts_call_1", "mcp__grafana__search_dashboards\nmcp__grafana__get_panel", False)

    doc = analyze_path(_rollout(tmp_path, [SEARCH, FOUND, MCP_CALL, MCP_OUT])).to_json()
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (2, 0)
    assert doc["stats"]["unknown_types"] == 0


def test_a_server_run_search_without_call_ids_pairs_with_the_search_before_it(tmp_path: Path) -> None:
    search = {**SEARCH, "id": "ts_1", "call_id": None, "execution": "server"}
    found = {**FOUND, "id": "tso_1", "call_id": None, "execution": "server", "status": "failed", "tools": []}
    events, stats = _events(_rollout(tmp_path, [search, found]))
    assert stats.unknown_types == 0
    (call,) = [e for e in events if e.kind == "tool_call"]
    (result,) = [e for e in events if e.kind == "tool_result"]
    assert (call.tool_name, call.call_id, call.text) == ("tool_search", "ts_1", "grafana dashboards")
    assert (result.call_id, result.is_error) == ("ts_1", True)


def test_saved_responses_items_read_the_search_too(tmp_path: Path) -> None:
    # a program's own Responses items, one a line (OpenAI chat reader, through the same items)
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "check gpu01"}]},
             SEARCH, FOUND,
             {"type": "function_call", "name": "run_shell", "call_id": "c3",
              "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi"})},
             {"type": "function_call_output", "call_id": "c3", "output": "NVIDIA-SMI 560.35"}]
    path = tmp_path / "agent_items.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in items))
    doc = analyze_path(path).to_json()
    assert doc["stats"]["unknown_types"] == 0
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert main["tool_calls"] == 2
    assert [(c["host"], c["command"]) for c in doc["commands"]] == [("gpu01", "ssh gpu01 nvidia-smi")]


def test_a_search_replayed_with_its_query_at_the_top_keeps_it(tmp_path: Path) -> None:
    search = {"type": "tool_search_call", "id": "ts1", "call_id": "call_ts", "query": "deploy tools"}
    found = {"type": "tool_search_output", "call_id": "call_ts", "tools": [{"name": "deploy", "description": "x"}]}
    events, _stats = _events(_rollout(tmp_path, [search, found]))
    assert [(e.kind, e.call_id, e.text) for e in events if e.kind in ("tool_call", "tool_result")] == [
        ("tool_call", "call_ts", "deploy tools"), ("tool_result", "call_ts", "deploy")]
