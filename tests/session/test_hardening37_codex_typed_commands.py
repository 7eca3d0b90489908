"""Codex's unified exec runs a command on a terminal (``exec_command{cmd, tty: true}``) and lets
the model type into it (``write_stdin{session_id, chars}``; openai/codex ``codex-rs/core/src/
unified_exec/``). After ``ssh gpu01`` opened a shell that way, what the model typed there was only a
poll: ``tail -n 1 /var/log/sglang.log`` was no command and the throughput it printed had no host.
A line typed into an interactive shell is now a command run on that shell's host (an ``ssh`` typed
in it opens a shell on its own host until ``exit``); input to a REPL stays no command."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

T = "019b0000-0000-7000-8000-000000000004"
DECODE = ("[2026-08-18 05:00:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: 1.02, "
          "accept rate: 0.51, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0")


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _running(session: int, shown: str) -> str:
    return f"Chunk ID: 1a2b\nWall time: 2.0 seconds\nProcess running with session ID {session}\nOutput:\n{shown}"


def _rollout(tmp_path: Path, start: str, typed: list[tuple[str, str]]) -> Path:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/tmp/p", "originator": "codex_cli_rs", "cli_version": "0.98.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/tmp/p"}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "EAGLE-3 on gpu01 is slow"}]}),
        _rl(3, "response_item", {"type": "function_call", "name": "exec_command", "call_id": "c0",
                                 "arguments": json.dumps({"cmd": start, "tty": True, "yield_time_ms": 3000})}),
        _rl(4, "response_item", {"type": "function_call_output", "call_id": "c0",
                                 "output": _running(7, "Welcome to Ubuntu 22.04\n$ ")}),
    ]
    for i, (chars, output) in enumerate(typed, 1):
        lines.append(_rl(4 + 2 * i, "response_item", {"type": "function_call", "name": "write_stdin", "call_id": f"c{i}",
                                                      "arguments": json.dumps({"session_id": 7, "chars": chars,
                                                                               "yield_time_ms": 2000})}))
        lines.append(_rl(5 + 2 * i, "response_item", {"type": "function_call_output", "call_id": f"c{i}",
                                                      "output": output}))
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_a_command_typed_into_an_ssh_shell_runs_on_its_host(tmp_path: Path) -> None:
    path = _rollout(tmp_path, "ssh gpu01", [
        ("tail -n 1 /var/log/sglang.log\n", _running(7, f"tail -n 1 /var/log/sglang.log\n{DECODE}\n$ ")),
        ("", _running(7, "")),  # a poll types nothing
        ("exit\n", "Chunk ID: 5e6f\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nlogout\n"
                   "Connection to gpu01 closed.\n"),
    ])
    analysis = analyze_path(path)
    doc = analysis.to_json()
    assert [(c["seq"], c["host"], c["command"], c["category"]) for c in doc["commands"]] == [
        (3, "gpu01", "ssh gpu01", "other"), (5, "gpu01", "tail -n 1 /var/log/sglang.log", "logs")]
    assert [(m["seq"], m["name"], m["value"], m["host"]) for m in doc["metrics"]] == [
        (6, "throughput", 54.8, "gpu01"), (6, "accept_length", 1.02, "gpu01"), (6, "accept_rate", 0.51, "gpu01")]
    assert doc["commands"][0]["exit_code"] == 0  # the exit ends the ssh, as before


def test_an_ssh_typed_in_the_shell_moves_the_next_lines_until_exit(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path, "ssh login01", [
        ("ssh gpu07\n", _running(7, "alice@gpu07:~$ ")),
        ("nvidia-smi\n", _running(7, "NVIDIA-SMI 550.54.15\n$ ")),
        ("exit\n", _running(7, "logout\nConnection to gpu07 closed.\n$ ")),
        ("squeue -u alice\n", _running(7, "JOBID PARTITION NAME USER ST TIME NODES NODELIST(REASON)\n$ ")),
    ])).to_json()
    assert [(c["host"], c["command"]) for c in doc["commands"]] == [
        ("login01", "ssh login01"), ("gpu07", "ssh gpu07"), ("gpu07", "nvidia-smi"), ("login01", "squeue -u alice")]


def test_input_to_a_python_prompt_is_no_command(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path, "python3", [
        ("import torch; print(torch.cuda.is_available())\n", _running(7, "True\n>>> ")),
        ("\u0003", _running(7, "KeyboardInterrupt\n>>> ")),
    ])).to_json()
    assert [c["command"] for c in doc["commands"]] == ["python3"]


def test_distill_runs_the_typed_checks_on_the_shells_host(tmp_path: Path) -> None:
    crash = ('Traceback (most recent call last):\n  File "/tmp/test_drafter.py", line 12, in <module>\n'
             "    out = model(x)\nRuntimeError: shape mismatch: [1, 12288] vs [1, 8192]")
    analysis = analyze_path(_rollout(tmp_path, "ssh gpu01", [
        ("python /tmp/test_drafter.py\n", _running(7, f"{crash}\n$ ")),
        ("cat /models/draft/config.json\n", _running(7, '{"hidden_size": 4096}\n$ ')),
    ]))
    doc = analysis.to_json()
    assert [(e["seq"], e["host"], e["message"]) for e in doc["errors"]] == [
        (6, "gpu01", "shape mismatch: [1, 12288] vs [1, 8192]")]
    assert [(p["seq"], p["from_category"], p["to_category"]) for p in doc["pivots"]] == [(7, "run_test", "inspect_config")]
    playbook = distill_playbook(analysis)
    assert [s["provenance"]["seq"] for s in playbook["steps"]] == [5, 7]
    assert "--host gpu01" in playbook["description"]
