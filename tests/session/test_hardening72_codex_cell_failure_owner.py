"""Codex code mode: a cell left running (``Script running with cell ID N``, ended later by a
``wait{cell_id: N}``) stays open while the model runs another cell. A patch or MCP call of the first
cell that failed then (``item_completed{item: FileChange{id: "exec-…", status: "failed"}}``, a nested
call whose id names no cell: openai/codex ``codex-rs/core/src/tools/code_mode/mod.rs``
``call_nested_tool``) was pinned to the newest open cell: the second cell, which only ran
``nvidia-smi``, read as a failed edit, and the cell whose edit failed as one that went fine. The
failure now goes to the open cell whose literals name what failed (the patched file, the MCP tool),
the newest one only when none does. Lines in the shape of ``test_hardening71_codex_cell_failures``."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor

THREAD = "01a0853e-a76d-79a0-9386-9cf66d19e2e2"
TURN = "01a0853f-16de-73a0-91a6-7b3536f9d65f"
NESTED = "exec-5d2c8f3a-9ed6-4619-afa2-5ad480f79b27"
PATCH_CELL = ('await tools.apply_patch("*** Begin Patch\\n*** Update File: /srv/eagle.py\\n@@\\n-k = 4\\n+k = 2\\n'
              '*** End Patch");\nawait new Promise(r => setTimeout(r, 60000));\ntext("patched");\n')
MCP_CELL = ('const r = await tools.mcp__gpu__restart_server({host: "gpu02"});\n'
            'await new Promise(r => setTimeout(r, 60000));\ntext(JSON.stringify(r));\n')
SMI_CELL = 'const r = await tools.exec_command({cmd: "nvidia-smi"});\ntext(r.output);\n'


def _line(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-09-09T08:18:{n:02d}.000Z", "type": kind, "payload": payload}


def _output(n: int, call_id: str, head: str, printed: str) -> dict:
    return _line(n, "response_item", {"type": "custom_tool_call_output", "call_id": call_id, "output": [
        {"type": "input_text", "text": f"{head}\nWall time 0.4 seconds\nOutput:\n"}, {"type": "input_text", "text": printed}]})


def _read(tmp_path: Path, first_cell: str, failure: dict) -> list:
    lines = [
        _line(0, "session_meta", {"id": THREAD, "timestamp": "2026-09-09T08:17:51.043Z", "cwd": "/srv",
                                  "originator": "codex-tui", "cli_version": "0.153.4"}),
        _line(1, "response_item", {"type": "custom_tool_call", "status": "completed", "call_id": "call_A",
                                   "name": "exec", "input": first_cell}),
        _output(2, "call_A", "Script running with cell ID 7", ""),
        _line(3, "response_item", {"type": "custom_tool_call", "status": "completed", "call_id": "call_B",
                                   "name": "exec", "input": SMI_CELL}),
        _line(4, "event_msg", {"type": "item_completed", "thread_id": THREAD, "turn_id": TURN, "item": failure}),
        _output(5, "call_B", "Script completed", "| 0  NVIDIA H100 80GB HBM3 |"),
        _line(6, "response_item", {"type": "function_call", "call_id": "call_W", "name": "wait",
                                   "arguments": json.dumps({"cell_id": "7"})}),
        _output(7, "call_W", "Script completed", "done"),
    ]
    path = tmp_path / f"rollout-2026-09-09T08-17-51-{THREAD}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    return [(e.call_id, e.is_error, e.text) for e in events if e.kind == "tool_result" and e.raw_type != "running"]


def test_a_failed_patch_is_the_cell_that_patches_that_file(tmp_path: Path) -> None:
    failure = {"type": "FileChange", "id": NESTED, "status": "failed",
               "changes": {"/srv/eagle.py": {"type": "update", "unified_diff": "@@\n-k = 4\n+k = 2\n"}}}
    # was: call_B failed with "apply_patch failed: /srv/eagle.py", call_A went fine
    assert _read(tmp_path, PATCH_CELL, failure) == [
        ("call_B", False, "| 0  NVIDIA H100 80GB HBM3 |"),
        ("call_A", True, "apply_patch failed: /srv/eagle.py\ndone")]


def test_a_failed_mcp_call_is_the_cell_that_calls_that_tool(tmp_path: Path) -> None:
    failure = {"type": "McpToolCall", "id": NESTED, "server": "gpu", "tool": "restart_server", "status": "failed",
               "result": None, "error": {"message": "ssh: connect to host gpu02 port 22: Connection refused"}}
    assert _read(tmp_path, MCP_CELL, failure) == [
        ("call_B", False, "| 0  NVIDIA H100 80GB HBM3 |"),
        ("call_A", True, "ssh: connect to host gpu02 port 22: Connection refused\ndone")]


def test_a_failure_no_cell_names_stays_the_newest_cells(tmp_path: Path) -> None:
    failure = {"type": "McpToolCall", "id": NESTED, "server": "docs", "tool": "search", "status": "failed",
               "result": None, "error": {"message": "tool call failed"}}
    assert _read(tmp_path, MCP_CELL, failure) == [
        ("call_B", True, "tool call failed\n| 0  NVIDIA H100 80GB HBM3 |"),
        ("call_A", False, "done")]
