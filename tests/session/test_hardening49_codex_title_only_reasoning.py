"""A Codex reasoning summary is often its bold title alone (``{"type": "reasoning", "summary":
[{"type": "summary_text", "text": "**Checking server**"}]}``, as published rollouts and rollout
readers' fixtures show). ``distill`` made the title a sentence only when text followed it, so
the step's why ran the title into our own words: "Checking server Its result (error) prompted a
change of approach". The title ends its sentence now, alone or not."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook


def _line(n: int, kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": f"2026-01-20T09:00:{n:02d}.000Z", "type": kind, "payload": payload})


def test_a_title_only_summary_is_a_sentence_of_the_why(tmp_path: Path) -> None:
    path = tmp_path / "rollout-2026-01-20T09-00-00-019a0000-1111-7222-8333-444455556666.jsonl"
    path.write_text("\n".join([
        _line(0, "session_meta", {"id": "019a0000-1111-7222-8333-444455556666", "cwd": "/home/u",
                                  "originator": "codex_cli_rs", "cli_version": "0.77.0"}),
        _line(1, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Why is the EAGLE3 speedup gone on node7?"}]}),
        _line(2, "response_item", {"type": "reasoning", "summary": [
            {"type": "summary_text", "text": "**Checking server**"}], "content": None, "encrypted_content": "gAAA"}),
        _line(3, "response_item", {"type": "function_call", "name": "shell_command", "call_id": "c1",
                                   "arguments": json.dumps({"command": "ssh node7 'nvidia-smi'"})}),
        _line(4, "response_item", {"type": "function_call_output", "call_id": "c1", "output":
                                   "Exit code: 255\nWall time: 0.1 seconds\nOutput:\n"
                                   "ssh: Could not resolve hostname node7: Name or service not known\n"}),
        _line(5, "response_item", {"type": "function_call", "name": "shell_command", "call_id": "c2",
                                   "arguments": json.dumps({"command": "tail -n 50 /var/log/sglang.log"})}),
        _line(6, "response_item", {"type": "function_call_output", "call_id": "c2", "output":
                                   "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nDecode batch. accept len: 1.05\n"}),
    ]) + "\n")
    doc = distill_playbook(analyze_path(path))
    [first] = [s for s in doc["steps"] if "nvidia-smi" in s["run"]]
    # (the failure in words: was "Its result (connection: ssh: ...)", hardening 72)
    assert first["why"].startswith("Checking server. Its result (ssh: Could not resolve hostname node7: "
                                   "Name or service not known) prompted a change of approach")
