"""Models send ``write_stdin``'s ``session_id`` as a float (``{"session_id": 29757.0, "chars":
""}``), which Codex takes (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``, test
``accepts_integral_float_arguments_from_model_tool_calls``; the same arguments in a proxy's test of
replayed Responses input, ``{"session_id":92116.0}``). The reader knew only int and str ids: the
poll that saw the command exit with code 1 was a failed call of its own, and the command it
polled kept no exit status. Now the poll's exit is the command's."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def test_a_float_session_id_polls_its_command(tmp_path: Path) -> None:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.98.0"}}]
    items = [
        {"type": "function_call", "name": "exec_command", "call_id": "c1",
         "arguments": json.dumps({"cmd": "python -m sglang.launch_server --model-path m --port 30000"})},
        {"type": "function_call_output", "call_id": "c1",
         "output": "Chunk ID: a1\nWall time: 10.0 seconds\nProcess running with session ID 29757\nOutput:\nloading\n"},
        {"type": "function_call", "name": "write_stdin", "call_id": "c2",
         "arguments": json.dumps({"session_id": 29757.0, "chars": "", "yield_time_ms": 30000.0})},
        {"type": "function_call_output", "call_id": "c2",
         "output": "Chunk ID: b2\nWall time: 3.0 seconds\nProcess exited with code 1\nOutput:\n"
                   "RuntimeError: CUDA error: out of memory\n"},
    ]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path = tmp_path / "rollout-2026-01-02T03-04-05-0199a1b2.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    doc = analyze_path(path).to_json()
    (server,) = doc["commands"]
    assert (server["exit_code"], server["is_error"]) == (1, True)  # was (None, False)
    assert [e["command_seq"] for e in doc["errors"] if "out of memory" in e["message"]] == [server["seq"]]
