"""An MCP server's SSH tool takes the host, and often the user and port, as arguments:
``ssh_execute_command{host, username, port, command}`` (VitalyMalakanov/mcp-ssh-toolkit-py),
``ssh_exec{host: "user@host:port", command}`` (tenox7/ssh-mcp). The command's ``host`` came out
right, but its ``user`` and ``port`` were null, though ``ssh -p 2222 root@host`` typed in Bash
gives both: a playbook step made from it would reach the host on the wrong port. Now they are
the command's, in a Claude Code session and in a Codex rollout alike."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "5e55a000-0000-4000-8000-00000000d055"
CALLS = [
    ("mcp__ssh__ssh_execute_command", {"host": "10.0.0.7", "username": "root", "port": 2222, "command": "nvidia-smi -L"},
     "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)"),
    ("mcp__ssh-mcp__ssh_exec", {"host": "ubuntu@gpu07:2200", "command": "tail -n 1 /var/log/sglang.log"},
     "Decode batch, #running-req: 1, #token: 90, token usage: 0.01, accept len: 1.21, accept rate: 0.05, "
     "cuda graph: True, gen throughput (token/s): 45.30, #queue-req: 0"),
    ("mcp__ssh__ssh_execute_command", {"host": "gpu08", "command": "uptime"}, " 10:00:01 up 3 days,  1 user"),
]
EXPECTED = [("10.0.0.7", "root", 2222), ("gpu07", "ubuntu", 2200), ("gpu08", None, None)]


def _claude_session(path: Path, calls: list[tuple] = CALLS) -> Path:
    rows = [{"type": "user", "message": {"role": "user", "content": "EAGLE-3 on gpu07 is slow; check the GPUs."}}]
    for i, (name, args, output) in enumerate(calls):
        rows.append({"type": "assistant", "requestId": f"req_{i}", "message": {
            "id": f"msg_{i}", "type": "message", "role": "assistant", "model": "claude-opus-4",
            "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": args}]}})
        rows.append({"type": "user", "toolUseResult": [{"type": "text", "text": output}], "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}",
                                         "content": [{"type": "text", "text": output}]}]}})
    for n, row in enumerate(rows):
        row.update({"uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "isSidechain": False,
                    "userType": "external", "cwd": "/work/eagle", "sessionId": SESSION, "version": "2.1.173",
                    "timestamp": f"2026-03-01T10:00:{n:02d}.000Z"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _codex_rollout(path: Path) -> Path:
    rows = [{"type": "session_meta", "payload": {"id": "019c3a10-0000-7000-8000-00000000d055", "cwd": "/work/eagle",
                                                 "originator": "codex_cli_rs", "cli_version": "0.46.0"}},
            {"type": "turn_context", "payload": {"turn_id": "t1", "cwd": "/work/eagle", "model": "gpt-5-codex"}},
            {"type": "event_msg", "payload": {"type": "user_message", "message": "EAGLE-3 on gpu07 is slow."}}]
    for i, (name, args, output) in enumerate(CALLS):
        rows.append({"type": "response_item", "payload": {"type": "function_call", "name": name,
                                                          "arguments": json.dumps(args), "call_id": f"call_{i}"}})
        rows.append({"type": "response_item", "payload": {"type": "function_call_output", "call_id": f"call_{i}",
                                                          "output": output}})
    for n, row in enumerate(rows):
        row["timestamp"] = f"2026-03-01T09:00:{n:02d}.000Z"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _logins(doc: dict) -> list[tuple]:
    return [(c["host"], c["user"], c["port"]) for c in doc["commands"]]


def test_a_claude_code_mcp_ssh_call_keeps_its_user_and_port(tmp_path):
    doc = analyze_path(_claude_session(tmp_path / f"{SESSION}.jsonl")).to_json()
    assert _logins(doc) == EXPECTED
    assert [c["cwd"] for c in doc["commands"]] == [None, None, None]  # ran on the host, not in the local folder


def test_a_codex_mcp_ssh_call_keeps_its_user_and_port(tmp_path):
    doc = analyze_path(_codex_rollout(tmp_path / "rollout-2026-03-01T09-00-00-019c3a10-0000-7000-8000-00000000d055.jsonl"))
    assert _logins(doc.to_json()) == EXPECTED


def test_a_bash_ssh_command_keeps_its_own_login(tmp_path):
    typed = [("Bash", {"command": "ssh -p 2022 admin@gpu09 nvidia-smi -L"}, "GPU 0: NVIDIA H100 80GB HBM3")]
    doc = analyze_path(_claude_session(tmp_path / f"{SESSION}.jsonl", typed)).to_json()
    assert _logins(doc) == [("gpu09", "admin", 2022)]
