"""Codex 0.15x rollouts keep the UI's copy of how a call ended (``mcp_tool_call_end``,
``patch_apply_end``, ``item_completed``); the model's copy (``function_call_output``) often does
not say that the call failed. An MCP SSH tool that answered ``isError: true`` (host down) read
as a command that ran fine, and so did a patch that was never written and a command the sandbox
denied with exit code -1. Each call must still end once: the model's copy that follows is not a
second result, and a code-mode cell's inner command is not a second call.

Data: ``data_hardening18_codex/`` (SOURCE.md there)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import codex, codex_tool_ends
from spec_debug.session.formats.common import Cursor

DATA = Path(__file__).parent / "data_hardening18_codex"
ROLLOUT = DATA / "rollout-2026-10-05T16-00-00-tool-ends.jsonl"


def _events(path: Path) -> list:
    return list(codex.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))


def test_an_mcp_ssh_call_the_server_failed_is_a_failed_command_on_its_host() -> None:
    a = analyze_path(ROLLOUT)
    by_host = {c.host: c for c in a.commands if c.host}
    # isError: true (connection refused) and Err (the client timed out): both failed
    assert by_host["gpu01"].is_error and by_host["gpu02"].is_error
    assert by_host["gpu01"].inner == "nvidia-smi --query-gpu=memory.used --format=csv"


def test_each_call_ends_once_though_both_copies_are_in_the_rollout() -> None:
    events = _events(ROLLOUT)
    calls = [e for e in events if e.kind == "tool_call"]
    results = [e for e in events if e.kind == "tool_result"]
    assert len(calls) == 6
    assert sorted(r.call_id for r in results) == sorted(c.call_id for c in calls)
    # the successful MCP call: one result, from the end event, not failed
    (docs,) = [r for r in results if r.call_id == "call_docs_1"]
    assert not docs.is_error and docs.text.startswith("--speculative-num-draft-tokens")


def test_a_patch_that_was_not_written_and_a_denied_command_are_failures() -> None:
    results = {e.call_id: e for e in _events(ROLLOUT) if e.kind == "tool_result"}
    patch = results["call_patch_1"]
    assert patch.is_error and "Permission denied (os error 13)" in patch.text
    denied = results["call-unified-denied"]
    assert (denied.exit_code, denied.is_error) == (-1, True)
    a = analyze_path(ROLLOUT)
    (main,) = a.agents
    assert main["tool_calls"] == 6
    assert main["failed_calls"] == 4  # two MCP calls, the patch, the denied curl; not the docs or the cell
    (curl,) = [c for c in a.commands if c.command.startswith("curl")]
    assert curl.exit_code == -1


def test_an_item_without_its_call_in_the_file_adds_no_call() -> None:
    """A code-mode cell's inner command has an item of its own (``exec-inner-1``): the command is
    read from the cell once, and the item stays a system line."""
    events = _events(ROLLOUT)
    assert not any(e.call_id == "exec-inner-1" for e in events)
    a = analyze_path(ROLLOUT)
    assert [c.command for c in a.commands].count("wc -l serve.sh") == 1


def test_the_end_shapes_codex_writes_are_read() -> None:
    """``McpToolCallEndEvent.result`` is a serde ``Result``; turn items are spelled as the rollout
    (``CommandExecution``, status ``Failed``), the app-server (``commandExecution``, camelCase) and
    ``codex exec --json`` (``command_execution``) write them."""
    ok = codex_tool_ends.from_event("mcp_tool_call_end", {"call_id": "c", "result": {"Ok": {"content": []}}})
    assert ok is not None and not ok.is_error
    err = codex_tool_ends.from_event("mcp_tool_call_end", {"call_id": "c", "result": {"Err": "unknown tool"}})
    assert err is not None and (err.text, err.is_error) == ("unknown tool", True)
    camel = codex_tool_ends.from_item({"type": "commandExecution", "id": "c", "status": "completed",
                                       "aggregatedOutput": "x", "exitCode": 2})
    assert camel is not None and (camel.exit_code, camel.is_error, camel.text) == (2, True, "x")
    mcp = codex_tool_ends.from_item({"type": "McpToolCall", "id": "c", "status": "Failed", "result": None,
                                     "error": {"message": "server exited"}})
    assert mcp is not None and (mcp.text, mcp.is_error) == ("server exited", True)
    assert codex_tool_ends.from_item({"type": "Plan", "id": "p", "text": "1. build"}) is None


def test_an_end_without_a_call_id_or_a_result_is_no_end() -> None:
    assert codex_tool_ends.from_event("mcp_tool_call_end", {"invocation": {"server": "s"}}) is None
    assert codex_tool_ends.from_event("mcp_tool_call_end", {"call_id": "c"}) is None
    line = json.loads(ROLLOUT.read_text().splitlines()[4])["payload"]
    end = codex_tool_ends.from_event("mcp_tool_call_end", line)
    assert end is not None and end.text == "ssh: connect to host gpu01 port 22: Connection refused"
