"""What a Codex command still running printed (``exec_command`` returns "Process running with
session ID N" and its first output, each ``write_stdin`` poll before the end more of it) was read
apart from the command: its first output under ``<call>#running`` found no call, and each poll's
was the poll's own result, a call with no command. The throughput a ``ssh gpu01 tail -f`` showed
on a poll had no host. Both are now the running command's output, on its host."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000007"
DECODE = ("[2026-08-18 05:00:{s} TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: {a}, "
          "accept rate: 0.51, cuda graph: True, gen throughput (token/s): {t}, #queue-req: 0")


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _call(n: int, call_id: str, name: str, args: dict) -> dict:
    return _rl(n, "response_item", {"type": "function_call", "name": name, "call_id": call_id,
                                    "arguments": json.dumps(args)})


def _out(n: int, call_id: str, text: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id, "output": text})


def test_the_readings_of_a_followed_log_are_the_hosts_it_runs_on(tmp_path: Path) -> None:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/tmp/p", "originator": "codex_cli_rs", "cli_version": "0.98.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/tmp/p"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "EAGLE-3 on gpu01 is slow"}]}),
        _call(3, "c1", "exec_command", {"cmd": "ssh gpu01 tail -f /var/log/sglang.log", "yield_time_ms": 1000}),
        _out(4, "c1", "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 3\nOutput:\n"
                      + DECODE.format(s="00", a="1.05", t="55.10") + "\n"),
        _call(5, "c2", "write_stdin", {"session_id": 3, "chars": "", "yield_time_ms": 5000}),
        _out(6, "c2", "Chunk ID: 2\nWall time: 5.0 seconds\nProcess running with session ID 3\nOutput:\n"
                      + DECODE.format(s="05", a="1.02", t="54.80") + "\n"),
        _call(7, "c3", "write_stdin", {"session_id": 3, "chars": "\u0003", "yield_time_ms": 1000}),
        _out(8, "c3", "Chunk ID: 3\nWall time: 0.1 seconds\nProcess exited with code 130\nOutput:\n^C\n"),
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    assert [(c["seq"], c["host"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
        (3, "gpu01", "ssh gpu01 tail -f /var/log/sglang.log", None)]  # ended by the model's Ctrl-C
    assert [(m["seq"], m["name"], m["value"], m["host"]) for m in doc["metrics"] if m["name"] == "throughput"] == [
        (4, "throughput", 55.1, "gpu01"), (6, "throughput", 54.8, "gpu01")]
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (3, 0)
