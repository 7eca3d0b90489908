"""What a Codex command printed while still running (its first output, ``Process running with session
ID N``, and each poll before it ends, read under ``<call>#running``; openai/codex ``codex-rs/core/src/
tools/handlers/unified_exec.rs`` ``format_exec_response``) is the command's: its errors got the
command's host but no ``command_seq``, so a launch's traceback was tied to no command. Now they name
the command that printed them."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --port 30000"
TRACE = ("Traceback (most recent call last):\n"
         '  File "/srv/sglang/srt/model_executor/model_runner.py", line 212, in load_model\n'
         "    raise ValueError(\"draft model hidden size mismatch\")\n"
         "ValueError: draft model hidden size mismatch\n")


def _header(status: str, output: str) -> str:
    return f"Chunk ID: 3f9a1c\nWall time: 5.0012 seconds\n{status}\nOriginal token count: 21\nOutput:\n{output}"


def _rollout(path: Path, cmd: str, first: str, poll: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.128.0"}}]
    items = [{"type": "function_call", "name": "exec_command", "call_id": "c1",
              "arguments": json.dumps({"cmd": cmd, "yield_time_ms": 5000})},
             {"type": "function_call_output", "call_id": "c1", "output": first},
             {"type": "function_call", "name": "write_stdin", "call_id": "c2",
              "arguments": json.dumps({"session_id": 7, "chars": "", "yield_time_ms": 30000})},
             {"type": "function_call_output", "call_id": "c2", "output": poll}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_an_error_printed_while_running_names_its_command(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", LAUNCH,
                                _header("Process running with session ID 7", "loading weights\n" + TRACE),
                                _header("Process exited with code 1", "server stopped\n"))).to_json()
    seqs = {c["command"]: c["seq"] for c in doc["commands"]}
    errs = [(e["exception"], e["command_seq"]) for e in doc["errors"]]
    # was [("ValueError", None), ...]: the launch's traceback was tied to no command
    assert errs == [("ValueError", seqs[LAUNCH]), (None, seqs[LAUNCH])]


def test_an_error_printed_while_running_on_a_remote_host(tmp_path: Path) -> None:
    cmd = f"ssh gpu02 '{LAUNCH}'"
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", cmd,
                                _header("Process running with session ID 7", TRACE),
                                _header("Process exited with code 1", ""))).to_json()
    seqs = {c["command"]: c["seq"] for c in doc["commands"]}
    assert [(e["kind"], e["host"], e["command_seq"]) for e in doc["errors"]] == [
        ("traceback", "gpu02", seqs[cmd]), ("exit_code", "gpu02", seqs[cmd])]
