"""Codex code mode: a cell that outlives its yield (``Script running with cell ID N``) is polled with
``wait{cell_id}``, and the model may end it with ``wait{cell_id, terminate: true}`` (a ``tail -f`` it has
read enough of): the answer is ``Script terminated\\nWall time N seconds\\nOutput:\\n`` and what the cell
printed (openai/codex ``codex-rs/core/src/tools/code_mode/wait_handler.rs`` ``ExecWaitArgs.terminate``;
``mod.rs`` ``format_script_status``: ``RuntimeResponse::Terminated`` -> ``"Script terminated"``). That
header was not read as a cell's: the wait's output, header and all, was more output of a cell still
running, the cell never ended (its command had no result at the end of the session). Now the wait ends
the cell it names, its text what the cell printed: the model stopped it, no failure."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor

TAIL = "ssh gpu01 'tail -f /tmp/sglang.log'"
LOG = "[2026-10-05 16:00:03] Decode batch. #running-req: 8, accept len: 2.91\n"


def _rollout(path: Path) -> Path:
    items = [
        {"type": "custom_tool_call", "status": "completed", "call_id": "c1", "name": "exec",
         "input": "text(await tools.exec_command({cmd:" + json.dumps(TAIL) + ", yield_time_ms: 1000}));\n"},
        {"type": "custom_tool_call_output", "call_id": "c1",
         "output": "Script running with cell ID 10\nWall time 1.0 seconds\nOutput:\n"},
        {"type": "function_call", "name": "wait", "call_id": "w1",
         "arguments": json.dumps({"cell_id": "10", "yield_time_ms": 1000, "terminate": True})},
        {"type": "function_call_output", "call_id": "w1",
         "output": [{"type": "input_text", "text": "Script terminated\nWall time 0.1 seconds\nOutput:\n"},
                    {"type": "input_text", "text": LOG}]},
    ]
    lines = [{"timestamp": "2026-10-05T16:00:00.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-10-05T16:00:00.000Z", "cwd": "/srv",
                          "originator": "codex-tui", "cli_version": "0.153.4"}}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-10-05T16:00:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_terminated_cell_is_ended_by_its_wait(tmp_path: Path) -> None:
    path = _rollout(tmp_path / "rollout.jsonl")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    results = [(e.call_id, e.raw_type, e.is_error, e.exit_code, e.text) for e in events if e.kind == "tool_result"]
    # was [..., ("c1#running", "running", False, None, "Script terminated\n..." + LOG)]: the cell never ended
    assert results == [("c1#running", "running", False, None, ""), ("c1", None, False, None, LOG)]


def test_the_command_stopped_is_no_failure(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl")).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (TAIL, None, False, 4)]
    assert doc["errors"] == []
