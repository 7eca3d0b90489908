"""A Codex command that runs on after its first output ("Process running with session ID N") and
is polled (``write_stdin{chars: ""}``) until it exits: each chunk it showed while running is read
under ``<call>#running`` (openai/codex ``codex-rs/core/src/unified_exec/``). A chunk that showed a
traceback counted as one more failed call: a launch that failed once, polled three times, made the
agent's 4 calls 4 failed ones. Only the command's end says whether it failed; the polls did not."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000077"
LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --port 30000"
TRACE = ("Traceback (most recent call last):\n"
         '  File "/srv/sglang/srt/model_executor/model_runner.py", line 212, in load_model\n'
         "    raise ValueError(\"draft model hidden size mismatch\")\n"
         "ValueError: draft model hidden size mismatch\n")


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _call(n: int, call_id: str, name: str, args: dict) -> dict:
    return _rl(n, "response_item", {"type": "function_call", "name": name, "call_id": call_id,
                                    "arguments": json.dumps(args)})


def _out(n: int, call_id: str, status: str, body: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id,
                                    "output": f"Chunk ID: {n}\nWall time: 5.0 seconds\n{status}\nOutput:\n{body}"})


def _analyze(tmp_path: Path, code: int) -> dict:
    running = "Process running with session ID 3"
    poll = {"session_id": 3, "chars": "", "yield_time_ms": 5000}
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/srv", "originator": "codex_cli_rs", "cli_version": "0.98.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/srv"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "start the EAGLE-3 server"}]}),
        _call(3, "c1", "exec_command", {"cmd": LAUNCH, "yield_time_ms": 5000}),
        _out(4, "c1", running, "loading weights\n" + TRACE),
        _call(5, "c2", "write_stdin", poll),
        _out(6, "c2", running, "retrying\n" + TRACE),
        _call(7, "c3", "write_stdin", poll),
        _out(8, "c3", running, "retrying\n" + TRACE),
        _call(9, "c4", "write_stdin", poll),
        _out(10, "c4", f"Process exited with code {code}", "giving up\n" if code else "ready\n"),
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def _calls(doc: dict) -> tuple[int, int]:
    main = next(a for a in doc["agents"] if a["id"] == "main")
    return main["tool_calls"], main["failed_calls"]


def test_a_launch_that_failed_once_is_one_failed_call(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, 1)
    assert _calls(doc) == (4, 1)  # was (4, 4): each chunk with the traceback one more failure
    # the errors it showed stay the launch's, each where it was shown
    assert [(e["kind"], e["seq"], e["command_seq"]) for e in doc["errors"]] == [
        ("traceback", 4, 3), ("traceback", 6, 3), ("traceback", 8, 3), ("exit_code", 10, 3)]


def test_a_launch_that_recovered_is_no_failed_call(tmp_path: Path) -> None:
    assert _calls(_analyze(tmp_path, 0)) == (4, 0)  # was (4, 3)
