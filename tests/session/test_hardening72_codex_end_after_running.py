"""Newer Codex CLIs write the ``exec_command_end`` of a unified exec command that ran on after its
first output (openai/codex ``codex-rs/core/src/rollout/policy.rs`` ``should_persist_exec_command_end``),
its ``aggregated_output`` the command's whole output. What the command showed while it ran (its first
output, "Process running with session ID N", and each poll's) was read before, under
``<call>#running``; read whole again from the end, the launch's traceback was two errors and each
decode line shown while running was averaged into the end's reading once more. The end now gives
what the running outputs did not show, as the poll that saw the exit does on older CLIs."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000076"
TRACE = ("Traceback (most recent call last):\n"
         '  File "/srv/sglang/srt/model_executor/model_runner.py", line 212, in load_model\n'
         "    raise ValueError(\"draft model hidden size mismatch\")\n"
         "ValueError: draft model hidden size mismatch\n")
LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --port 30000"
DECODE = ("[2026-08-18 05:00:{s} TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: {a}, "
          "accept rate: 0.51, cuda graph: True, gen throughput (token/s): {t}, #queue-req: 0\n")


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _chunk(n: int, call_id: str, status: str, body: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id,
                                    "output": f"Chunk ID: {n}\nWall time: 5.0 seconds\n{status}\nOutput:\n{body}"})


def _analyze(tmp_path: Path, cmd: str, first: str, aggregated: str, code: int, last: str) -> dict:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/srv", "originator": "codex_cli_rs", "cli_version": "0.128.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/srv"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "the EAGLE-3 server on gpu01 is slow"}]}),
        _rl(3, "response_item", {"type": "function_call", "name": "exec_command", "call_id": "c1",
                                 "arguments": json.dumps({"cmd": cmd, "yield_time_ms": 5000})}),
        _chunk(4, "c1", "Process running with session ID 3", first),
        _rl(5, "response_item", {"type": "function_call", "name": "write_stdin", "call_id": "c2",
                                 "arguments": json.dumps({"session_id": 3, "chars": "", "yield_time_ms": 5000})}),
        _rl(6, "event_msg", {"type": "exec_command_end", "call_id": "c1", "turn_id": "t1",
                             "command": ["/bin/bash", "-lc", cmd], "source": "unified_exec_startup", "process_id": "3",
                             "stdout": "", "stderr": "", "aggregated_output": aggregated, "exit_code": code,
                             "duration": {"secs": 6, "nanos": 0}, "formatted_output": "",
                             "status": "failed" if code else "completed"}),
        _chunk(7, "c2", f"Process exited with code {code}", last),
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_a_traceback_shown_while_running_is_one_error(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, LAUNCH, "loading weights\n" + TRACE, "loading weights\n" + TRACE, 1, "")
    # was [("traceback", 4), ("traceback", 6)]: the end's whole output read the traceback again
    assert [(e["kind"], e["seq"]) for e in doc["errors"]] == [("traceback", 4), ("exit_code", 6)]
    assert [(c["seq"], c["exit_code"]) for c in doc["commands"]] == [(3, 1)]


def test_the_end_reads_only_what_was_not_shown(tmp_path: Path) -> None:
    cmd = "ssh gpu01 tail -n 1 -f /var/log/sglang.log"
    first = DECODE.format(s="00", a="1.05", t="55.10")
    rest = DECODE.format(s="05", a="1.02", t="54.80")
    doc = _analyze(tmp_path, cmd, first, first + rest, 0, rest)
    # was (6, 54.95): the end's average of both lines, the first one already read at 4
    assert [(m["seq"], m["value"], m["host"]) for m in doc["metrics"] if m["name"] == "throughput"] == [
        (4, 55.1, "gpu01"), (6, 54.8, "gpu01")]


def test_an_end_that_does_not_continue_what_was_shown_is_read_whole(tmp_path: Path) -> None:
    # (Codex cut the chunk it returned: what it showed is no start of the whole output)
    doc = _analyze(tmp_path, LAUNCH, "…4 tokens truncated…\n" + TRACE, "loading weights\n" + TRACE, 1, "")
    assert [(e["kind"], e["seq"]) for e in doc["errors"]] == [("traceback", 4), ("traceback", 6)]
