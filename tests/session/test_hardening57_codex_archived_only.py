"""``spec-debug analyze ~`` where ``~/.codex`` holds only ``archived_sessions/`` (the rollouts
archived out of ``sessions/``, TRANSCRIPTS.md section 1b, copied alone or with ``sessions/``
cleaned up): the Codex home was told only by a ``sessions/`` folder, so ``.codex`` was passed by
with every other dot-folder and the scan said "no transcript files found". Now either transcript
folder tells Codex's home."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CODEX = "rollout-2026-10-02T08-00-00-0199a1b2-0000-7000-8000-00000000e591"


def _jsonl(path: Path, *records: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_a_home_scan_reads_codex_archived_sessions_alone(tmp_path):
    home = tmp_path / "mei"
    # codex-rs protocol shapes: session_meta, function_call (exec_command), exec_command_end
    _jsonl(home / ".codex" / "archived_sessions" / f"{CODEX}.jsonl",
           {"timestamp": "2026-10-02T08:00:00.000Z", "type": "session_meta",
            "payload": {"id": "0199a1b2-0000-7000-8000-00000000e591", "cwd": "/work", "originator": "codex_cli_rs"}},
           {"timestamp": "2026-10-02T08:00:01.000Z", "type": "response_item",
            "payload": {"type": "function_call", "name": "exec_command", "call_id": "call_1",
                        "arguments": json.dumps({"cmd": "nvidia-smi"})}},
           {"timestamp": "2026-10-02T08:00:02.000Z", "type": "event_msg",
            "payload": {"type": "exec_command_end", "call_id": "call_1", "command": ["bash", "-lc", "nvidia-smi"],
                        "aggregated_output": "NVIDIA-SMI has failed", "exit_code": 9, "status": "failed"}})
    (home / ".cache" / "tool").mkdir(parents=True)
    (home / ".cache" / "tool" / "notes.md").write_text("$ make\n")
    (home / "notes.md").write_text("# notes\n")
    doc = analyze_path(home).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == sorted([CODEX, "notes"])
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]
