"""Codex code mode: a cell's ``tools.apply_patch(...)`` or MCP tool call runs as a nested call whose id
is ``exec-<uuid>`` (openai/codex ``codex-rs/core/src/tools/code_mode/mod.rs`` ``call_nested_tool``:
``call_id: format!("{PUBLIC_TOOL_NAME}-{}", uuid)``), and its end is written between the cell's call
and its output: ``item_completed{item: FileChange{id: "exec-…", changes, status: "failed"}}`` or
``McpToolCall{…, status: "failed", error: {message}}`` (``codex-rs/protocol/src/items.rs``), or
``patch_apply_end{call_id: "exec-…", success: false, stderr}``. A cell that printed no status of its own
("Script completed", no exit code) read as a call that went fine, the failure kept only as a system
line. Now the cell is a failed call, the failure's text first (its error); a cell that printed a status
keeps it.
The lines are written in the shape of ``test_hardening62_codex_cell_command_ends`` (a real rollout)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor

THREAD = "01a0853e-a76d-79a0-9386-9cf66d19e2e1"
TURN = "01a0853f-16de-73a0-91a6-7b3536f9d65e"
NESTED = "exec-5d2c8f3a-9ed6-4619-afa2-5ad480f79b26"
PATCH_CELL = ('await tools.apply_patch("*** Begin Patch\\n*** Update File: /srv/eagle.py\\n@@\\n-k = 4\\n+k = 2\\n'
              '*** End Patch");\ntext("patched");\n')
MCP_CELL = 'const r = await tools.mcp__gpu__restart_server({host: "gpu02"});\ntext(JSON.stringify(r));\n'


def _line(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-09-09T08:18:{n:02d}.000Z", "type": kind, "payload": payload}


def _read(tmp_path: Path, source: str, end: tuple[str, dict], printed: list[str], status: str = "completed") -> list:
    lines = [
        _line(0, "session_meta", {"id": THREAD, "timestamp": "2026-09-09T08:17:51.043Z", "cwd": "/srv",
                                  "originator": "codex-tui", "cli_version": "0.153.4"}),
        _line(1, "response_item", {"type": "custom_tool_call", "status": "completed", "call_id": "call_A",
                                   "name": "exec", "input": source}),
        _line(2, end[0], end[1]),
        _line(3, "response_item", {"type": "custom_tool_call_output", "call_id": "call_A", "output": [
            {"type": "input_text", "text": f"Script {status}\nWall time 0.4 seconds\nOutput:\n"}]
            + [{"type": "input_text", "text": t} for t in printed]}),
    ]
    path = tmp_path / f"rollout-2026-09-09T08-17-51-{THREAD}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    return [(e.call_id, e.is_error, e.exit_code, e.text) for e in events if e.kind == "tool_result"]


def _file_change(status: str) -> tuple[str, dict]:
    return "event_msg", {"type": "item_completed", "thread_id": THREAD, "turn_id": TURN,
                         "item": {"type": "FileChange", "id": NESTED, "status": status,
                                  "changes": {"/srv/eagle.py": {"type": "update", "unified_diff": "@@\n-k = 4\n+k = 2\n"}}}}


def test_a_failed_patch_in_a_cell_fails_the_cell(tmp_path: Path) -> None:
    results = _read(tmp_path, PATCH_CELL, _file_change("failed"), ["patched"])
    # was [("call_A", False, None, "patched")]: the edit that did not apply read as one that did
    assert results == [("call_A", True, None, "apply_patch failed: /srv/eagle.py\npatched")]


def test_a_patch_that_applied_changes_nothing(tmp_path: Path) -> None:
    assert _read(tmp_path, PATCH_CELL, _file_change("completed"), ["patched"]) == [("call_A", False, None, "patched")]


def test_patch_apply_end_gives_its_error(tmp_path: Path) -> None:
    end = ("event_msg", {"type": "patch_apply_end", "call_id": NESTED, "turn_id": TURN, "stdout": "",
                         "stderr": "Failed to find expected lines in /srv/eagle.py:\nk = 4", "success": False})
    assert _read(tmp_path, PATCH_CELL, end, ["patched"]) == [
        ("call_A", True, None, "Failed to find expected lines in /srv/eagle.py:\nk = 4\npatched")]


def test_a_failed_mcp_call_in_a_cell_fails_the_cell(tmp_path: Path) -> None:
    end = ("event_msg", {"type": "item_completed", "thread_id": THREAD, "turn_id": TURN,
                         "item": {"type": "McpToolCall", "id": NESTED, "server": "gpu", "tool": "restart_server",
                                  "status": "failed", "result": None,
                                  "error": {"message": "ssh: connect to host gpu02 port 22: Connection refused"}}})
    assert _read(tmp_path, MCP_CELL, end, ["{}"]) == [
        ("call_A", True, None, "ssh: connect to host gpu02 port 22: Connection refused\n{}")]


def test_a_cell_that_printed_its_status_keeps_it(tmp_path: Path) -> None:
    printed = "Script error:\nError: patch did not apply"
    results = _read(tmp_path, PATCH_CELL, _file_change("failed"), [printed], status="failed")
    assert results == [("call_A", True, None, "Error: patch did not apply")]


def test_a_declined_patch_is_no_failure_of_the_cell(tmp_path: Path) -> None:
    assert _read(tmp_path, PATCH_CELL, _file_change("declined"), ["patched"]) == [("call_A", False, None, "patched")]


def test_the_error_is_the_failures(tmp_path: Path) -> None:
    from spec_debug.session import analyze_path
    _read(tmp_path, PATCH_CELL, _file_change("failed"), ["patched"])
    doc = analyze_path(next(tmp_path.glob("rollout-*.jsonl"))).to_json()
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("tool_error", "apply_patch failed: /srv/eagle.py")]
    assert doc["agents"][0]["failed_calls"] == 1
