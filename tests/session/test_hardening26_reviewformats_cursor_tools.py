"""Cursor CLI's stream-json names its file tools ``readToolCall``, ``editToolCall``... and a tool
of no known kind ``{"function": {"name": "Shell", "arguments"}}`` (shapes as independent runners'
fixtures of ``cursor-agent -p --output-format stream-json`` write them). Read as tools ``read``
and ``Shell``: a read source file's ``except torch.cuda.OutOfMemoryError`` was a CUDA OOM of the
session (a Claude Code ``Read`` of the same file is no error), and the ``Shell`` call had no
command. Now Claude Code's names (``Read``, ``Edit``...) and ``shell`` with its command. Its
``connection``/``retry`` lines (a reconnect to Cursor's servers) were lines of unknown types."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

SOURCE = ('import torch\ntry:\n    model.forward(x)\nexcept torch.cuda.OutOfMemoryError:\n'
          '    logger.error("CUDA out of memory. Tried to allocate 2.00 GiB")\n    raise\n')


def _tool(call_id: str, subtype: str, tool: dict) -> dict:
    return {"type": "tool_call", "subtype": subtype, "call_id": call_id, "tool_call": tool, "session_id": "s1"}


def test_a_read_source_file_is_no_error_a_function_shell_call_a_command_a_reconnect_known(tmp_path):
    read = {"args": {"path": "/w/model_runner.py"}}
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/w", "session_id": "s1", "model": "Auto"},
        {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "why the OOM"}]}, "session_id": "s1"},
        _tool("c1", "started", {"readToolCall": read}),
        _tool("c1", "completed", {"readToolCall": {**read, "result": {"success": {"content": SOURCE, "totalLines": 6}}}}),
        {"type": "connection", "subtype": "reconnecting", "session_id": "s1", "timestamp_ms": 1785515125191,
         "attempt": 1, "endpoint_url": "https://agentn.global.api5.cursor.sh"},
        {"type": "retry", "subtype": "starting", "session_id": "s1", "timestamp_ms": 1785515127275, "attempt": 1,
         "is_resume": True},
        _tool("c2", "started", {"function": {"name": "Shell", "arguments": json.dumps({"command": "nvidia-smi"})}}),
        _tool("c2", "completed", {"shellToolCall": {"result": {"success": {"command": "nvidia-smi", "exitCode": 0,
                                                                            "stdout": "NVIDIA-SMI 550.54\n"}}}}),
        {"type": "result", "subtype": "success", "is_error": False, "result": "done", "session_id": "s1"},
    ]
    path = tmp_path / "cursor-run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    assert doc["errors"] == []
    assert doc["stats"]["unknown_types"] == 0
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 0)]
