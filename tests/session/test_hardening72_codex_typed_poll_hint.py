"""A command typed into a shell Codex keeps open (``exec_command{cmd: "ssh gpu01", tty: true}``,
then ``write_stdin{session_id, chars: "python eval.py --standalone\\n"}``) prints what it measured on
a later poll (``write_stdin{session_id, chars: ""}``, "Process running with session ID N" while the
shell lives: openai/codex ``codex-rs/core/src/unified_exec/``). That output was read as the
``ssh gpu01`` opener's: its host right, but the command hint gone, so the standalone accuracy the
typed ``--standalone`` eval printed was read as an end-to-end accuracy. It is now the typed
command's, as the same lines in the typed call's own result are."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000072"


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _call(n: int, call_id: str, name: str, args: dict) -> dict:
    return _rl(n, "response_item", {"type": "function_call", "name": name, "call_id": call_id,
                                    "arguments": json.dumps(args)})


def _out(n: int, call_id: str, text: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id, "output": text})


def _running(chunk: int, body: str) -> str:
    return f"Chunk ID: {chunk}\nWall time: 2.0 seconds\nProcess running with session ID 3\nOutput:\n{body}"


def _analyze(tmp_path: Path, tail: list[dict]) -> dict:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/tmp/p", "originator": "codex_cli_rs", "cli_version": "0.98.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/tmp/p"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "check the EAGLE-3 drafter on gpu01"}]}),
        _call(3, "c1", "exec_command", {"cmd": "ssh gpu01", "tty": True, "yield_time_ms": 1000}),
        _out(4, "c1", _running(1, "Welcome to gpu01\n$ ")),
        _call(5, "c2", "write_stdin", {"session_id": 3, "chars": "python eval_drafter.py --standalone\n",
                                       "yield_time_ms": 2000}),
        _out(6, "c2", _running(2, "loading drafter...\n")),
        *tail,
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_what_a_later_poll_shows_is_the_typed_commands(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, [
        _call(7, "c3", "write_stdin", {"session_id": 3, "chars": "", "yield_time_ms": 30000}),
        _out(8, "c3", _running(3, "acceptance rate: 0.42\naccuracy: 0.61\n$ ")),
    ])
    assert [(c["seq"], c["host"], c["command"]) for c in doc["commands"]] == [
        (3, "gpu01", "ssh gpu01"), (5, "gpu01", "python eval_drafter.py --standalone")]
    assert [(m["seq"], m["name"], m["value"], m["host"]) for m in doc["metrics"]] == [
        (8, "standalone_accuracy", 61.0, "gpu01"), (8, "accept_rate", 0.42, "gpu01")]


def test_after_ctrl_c_the_shell_prints_again(tmp_path: Path) -> None:
    # the typed eval stopped with Ctrl-C: what the shell shows next is no longer the eval's
    doc = _analyze(tmp_path, [
        _call(7, "c3", "write_stdin", {"session_id": 3, "chars": "\u0003", "yield_time_ms": 1000}),
        _out(8, "c3", _running(3, "^C\n$ ")),
        _call(9, "c4", "write_stdin", {"session_id": 3, "chars": "", "yield_time_ms": 1000}),
        _out(10, "c4", _running(4, "accuracy: 0.61\n$ ")),
    ])
    assert [(m["seq"], m["name"], m["value"], m["host"]) for m in doc["metrics"]] == [
        (10, "accuracy", 61.0, "gpu01")]
