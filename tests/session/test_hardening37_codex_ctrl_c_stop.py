"""A Codex agent ends a follow (``tail -f``, ``watch nvidia-smi``) the only way there is: it sends
Ctrl-C with ``write_stdin{chars: "\\u0003"}``, and the process exits 130 (128 + SIGINT). That
stop was read as a failure of the command: a "signal" error, a failed call, a change of approach
after it, and three follows stopped a loop of failing retries. A 130 after the model's own Ctrl-C
is now no exit status; a 130 it did not ask for is still one."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000008"


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:{n // 60:02d}:{n % 60:02d}.000Z", "type": kind, "payload": payload}


def _call(n: int, call_id: str, name: str, args: dict) -> dict:
    return _rl(n, "response_item", {"type": "function_call", "name": name, "call_id": call_id,
                                    "arguments": json.dumps(args)})


def _out(n: int, call_id: str, text: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id, "output": text})


def _follow(n: int, k: int, key: str, end_event: bool) -> list[dict]:
    """A follow started at ``n`` (session id ``k``), polled once, then sent ``key``."""
    lines = [
        _call(n, f"f{k}", "exec_command", {"cmd": "ssh gpu01 tail -f /var/log/sglang.log", "yield_time_ms": 1000}),
        _out(n + 1, f"f{k}", f"Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID {k}\nOutput:\nready\n"),
        _call(n + 2, f"k{k}", "write_stdin", {"session_id": k, "chars": key, "yield_time_ms": 1000}),
    ]
    if end_event:  # newest CLIs write the command's end first (openai/codex unified_exec async_watcher.rs)
        lines.append(_rl(n + 3, "event_msg", {"type": "exec_command_end", "call_id": f"f{k}", "exit_code": 130,
                                              "aggregated_output": "^C\n", "stdout": "^C\n", "stderr": ""}))
    lines.append(_out(n + 3, f"k{k}", "Chunk ID: b\nWall time: 0.1 seconds\nProcess exited with code 130\nOutput:\n^C\n"))
    return lines


def _analyze(tmp_path: Path, key: str, end_event: bool) -> dict:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/tmp/p", "originator": "codex_cli_rs", "cli_version": "0.98.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/tmp/p"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "watch the EAGLE-3 server log on gpu01"}]}),
    ]
    for i in range(3):
        lines += _follow(10 + 10 * i, 40 + i, key, end_event)
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def _outcome(doc: dict) -> tuple:
    main = next(a for a in doc["agents"] if a["id"] == "main")
    return ([c["exit_code"] for c in doc["commands"]], main["failed_calls"], [e["kind"] for e in doc["errors"]],
            len(doc["loops"]))


def test_follows_the_model_stopped_with_ctrl_c_did_not_fail(tmp_path: Path) -> None:
    assert _outcome(_analyze(tmp_path, "\u0003", end_event=False)) == ([None, None, None], 0, [], 0)


def test_the_same_when_the_commands_end_was_written_first(tmp_path: Path) -> None:
    assert _outcome(_analyze(tmp_path, "\u0003", end_event=True)) == ([None, None, None], 0, [], 0)


def test_a_130_the_model_did_not_ask_for_is_still_a_failure(tmp_path: Path) -> None:
    # a plain poll that found the follow ended by a signal someone else sent
    exits, failed, kinds, loops = _outcome(_analyze(tmp_path, "", end_event=False))
    assert (exits, failed, loops) == ([130, 130, 130], 3, 1)
