"""A rollout of a mid-2025 Codex CLI (a header line, then bare Responses items and ``record_type:
state`` lines) in which the model edits through the shell tool with ``applypatch <<'PATCH'`` and
some patches do not apply. Seen in a real rollout (AcidicSoil/codex-session-viewer
``docs/example.jsonl``, CLI of 2025-09): 23 such edits read as shell commands (``applypatch`` is
the other name Codex takes a patch under, openai/codex ``codex-rs/apply-patch/src/lib.rs``
``APPLY_PATCH_COMMANDS``), and the 8 that failed, answered ``error: Failed to find expected lines
[...] in <path>`` (``format!("error: {parse_error:#}")``, ``codex-rs/core/src/codex.rs`` of then),
as edits that worked. Now they are edits, and those failed calls."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PATCH = "*** Begin Patch\n*** Update File: src/server.py\n@@\n-PORT = 30000\n+PORT = 30001\n*** End Patch\n"


def _rollout(path: Path) -> Path:
    def shell(call_id: str, script: str) -> dict:
        return {"type": "function_call", "name": "shell", "call_id": call_id,
                "arguments": json.dumps({"command": ["bash", "-lc", script]})}

    lines = [
        {"id": "5f0c7a2e-1b2c-4d3e-8f9a-0b1c2d3e4f5a", "timestamp": "2025-09-10T18:58:38.331Z",
         "instructions": "", "git": {"branch": "main"}},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "move the server to 30001"}]},
        shell("call_1", f"applypatch << 'PATCH'\n{PATCH}PATCH"),
        {"type": "function_call_output", "call_id": "call_1",
         "output": 'error: Failed to find expected lines ["PORT = 30000"] in /home/u/proj/src/server.py'},
        {"record_type": "state"},
        shell("call_2", f"applypatch << 'PATCH'\n{PATCH.replace('30000', '30000  # default')}PATCH"),
        {"type": "function_call_output", "call_id": "call_2", "output": json.dumps(
            {"output": "Success. Updated the following files:\nM src/server.py\n",
             "metadata": {"exit_code": 0, "duration_seconds": 0.1}})},
        shell("call_3", "python -m pytest -q"),
        {"type": "function_call_output", "call_id": "call_3", "output": json.dumps(
            {"output": "3 passed in 0.2s\n", "metadata": {"exit_code": 0, "duration_seconds": 1.0}})},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_old_applypatch_edits_are_edits_and_a_failed_one_failed(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout-2025-09-10T18-58-38-5f0c7a2e.jsonl")).to_json()
    assert doc["format"] == "codex"
    assert [c["command"] for c in doc["commands"]] == ["python -m pytest -q"]  # the edits were commands
    assert doc["agents"][0]["tool_calls"] == 3
    assert doc["agents"][0]["failed_calls"] == 1  # was 0
    assert [e["message"][:36] for e in doc["errors"]] == ["error: Failed to find expected lines"]
