"""A shell Codex keeps open (``exec_command{cmd: "ssh gpu01", tty: true}``), commands typed into it
(``write_stdin{chars: "python bench.py\\n"}``, each read as a call of its own with its output), then
``exit``: newer CLIs write the shell's ``exec_command_end`` (openai/codex ``codex-rs/core/src/
unified_exec/async_watcher.rs``), its ``aggregated_output`` the whole session's transcript, every
typed command's output in it. Read whole, the CUDA error the typed benchmark printed was read a
second time, as the ``ssh gpu01`` opener's. The end now gives only what no chunk showed."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000078"
RUNNING = "Process running with session ID 3"
TRACE = ("Traceback (most recent call last):\n  File \"bench.py\", line 3, in <module>\n"
         "RuntimeError: CUDA error: an illegal memory access was encountered\n")


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _call(n: int, call_id: str, args: dict, name: str = "write_stdin") -> dict:
    return _rl(n, "response_item", {"type": "function_call", "name": name, "call_id": call_id,
                                    "arguments": json.dumps(args)})


def _out(n: int, call_id: str, status: str, body: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id,
                                    "output": f"Chunk ID: {n}\nWall time: 2.0 seconds\n{status}\nOutput:\n{body}"})


def test_what_typed_commands_showed_is_not_read_again_from_the_shells_end(tmp_path: Path) -> None:
    shown = ["Welcome to gpu01\n$ ", "nvidia-smi\n| 0  NVIDIA H100 80GB HBM3 |\n$ ", "python bench.py\n" + TRACE + "$ "]
    tail = "exit\nlogout\nConnection to gpu01 closed.\n"
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/srv", "originator": "codex_cli_rs", "cli_version": "0.128.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/srv"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "run the EAGLE-3 bench on gpu01"}]}),
        _call(3, "c1", {"cmd": "ssh gpu01", "tty": True, "yield_time_ms": 1000}, name="exec_command"),
        _out(4, "c1", RUNNING, shown[0]),
        _call(5, "c2", {"session_id": 3, "chars": "nvidia-smi\n"}),
        _out(6, "c2", RUNNING, shown[1]),
        _call(7, "c3", {"session_id": 3, "chars": "python bench.py\n"}),
        _out(8, "c3", RUNNING, shown[2]),
        _call(9, "c4", {"session_id": 3, "chars": "exit\n"}),
        _rl(10, "event_msg", {"type": "exec_command_end", "call_id": "c1", "turn_id": "t1",
                              "command": ["/bin/bash", "-lc", "ssh gpu01"], "source": "unified_exec_startup",
                              "process_id": "3", "stdout": "", "stderr": "", "aggregated_output": "".join(shown) + tail,
                              "exit_code": 0, "duration": {"secs": 9, "nanos": 0}, "formatted_output": "",
                              "status": "completed"}),
        _out(11, "c4", "Process exited with code 0", tail),
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    assert [(c["seq"], c["host"], c["command"]) for c in doc["commands"]] == [
        (3, "gpu01", "ssh gpu01"), (5, "gpu01", "nvidia-smi"), (7, "gpu01", "python bench.py")]
    # was a second cuda_error at 10, the ssh opener's (command_seq 3)
    assert [(e["kind"], e["seq"], e["command_seq"]) for e in doc["errors"]] == [("cuda_error", 8, 7)]
