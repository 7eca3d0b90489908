"""Hermes Agent's ``execute_code`` tool runs a Python script that calls Hermes's tools through
``from hermes_tools import terminal`` ("programmatic tool calling": ``terminal(command, timeout=None,
workdir=None)``); the session keeps the script (``{"code": …}``) and what it printed (``{"status",
"output", "tool_calls_made", "duration_seconds"}``; NousResearch/hermes-agent
``tools/code_execution_tool.py``).

Before: the script's ``terminal("ssh gpu01 …")`` calls were no commands: the EAGLE-3 launch, its host
and its CUDA OOM belonged to nothing (``commands`` empty, the OOM tied to no command). Now the
literal commands a script gives ``terminal()`` are the call's command, one a line, as a Codex
code-mode cell's are; a command the script builds while it runs (an f-string) is not read."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "ssh gpu01 python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
SCRIPT = f'''from hermes_tools import terminal
free = terminal("ssh gpu01 nvidia-smi --query-gpu=memory.used --format=csv,noheader")
print(free["output"])
for port in (30000, 30001):
    terminal(f"ssh gpu01 fuser -k {{port}}/tcp")
r = terminal(command={LAUNCH!r}, timeout=600)
print(r["exit_code"], r["output"][-400:])
'''
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _session(tmp_path: Path, code: str, result: dict, name: str = "execute_code") -> Path:
    messages = [{"role": "user", "content": "start the EAGLE-3 server on gpu01"},
                {"role": "assistant", "content": "", "tool_calls": [{"id": "call_0", "type": "function", "function": {
                    "name": name, "arguments": json.dumps({"code": code})}}]},
                {"role": "tool", "tool_call_id": "call_0", "content": json.dumps(result)}]
    path = tmp_path / "session_20261102_080000_0a1b2c.json"
    path.write_text(json.dumps({"session_id": "20261102_080000_0a1b2c", "messages": messages}))
    return path


def test_a_scripts_terminal_calls_are_its_commands(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, SCRIPT, {
        "status": "success", "output": f"0 MiB\n1 Traceback (most recent call last):\n{OOM}\n",
        "tool_calls_made": 4, "duration_seconds": 41.2}))
    assert [(c.command, c.host, c.is_error) for c in a.commands] == [  # was no command
        ("ssh gpu01 nvidia-smi --query-gpu=memory.used --format=csv,noheader\n" + LAUNCH, "gpu01", True)]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [("cuda_oom", OOM[24:], a.commands[0].seq)]


def test_a_script_that_exited_non_zero_fails_its_command(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, 'import hermes_tools\nhermes_tools.terminal("ssh gpu01 nvidia-smi -L")\n', {
        "status": "error", "output": "", "exit_code": 1, "tool_calls_made": 1, "duration_seconds": 1.2,
        "error": "Script exited with code 1"}))
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("ssh gpu01 nvidia-smi -L", "gpu01", 1, True)]


def test_a_script_with_no_literal_command_is_no_command(tmp_path: Path) -> None:
    built = 'from hermes_tools import terminal\nhost = "gpu01"\nprint(terminal(f"ssh {host} nvidia-smi")["output"])\n'
    cut = 'from hermes_tools import terminal\nterminal("ssh gpu01 nvidia-smi"'  # a script cut short
    for code in (built, cut, "print(sum(range(10)))\n"):
        a = analyze_path(_session(tmp_path, code, {"status": "success", "output": "45\n", "tool_calls_made": 0,
                                                   "duration_seconds": 0.1}))
        assert a.commands == []


def test_another_tool_of_that_shape_is_left_alone(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, SCRIPT, {"status": "success", "output": "ok\n"}, name="run_python"))
    assert a.commands == []


def test_a_scripts_result_is_what_it_printed_not_its_json(tmp_path: Path) -> None:
    """The result's JSON kept whole hid the script's output in escaped lines: a timeout's error was
    the whole JSON, a failed script's traceback its JSON's."""
    a = analyze_path(_session(tmp_path, SCRIPT, {
        "status": "timeout", "output": "0 MiB\n",
        "tool_calls_made": 2, "duration_seconds": 300.4, "error": "Script timed out after 300s and was killed."}))
    assert [(e.kind, e.message) for e in a.errors] == [("timeout", "Script timed out after 300s and was killed.")]
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(None, True)]
    a = analyze_path(_session(tmp_path, SCRIPT, {
        "status": "error", "output": "0 MiB\n\n--- stderr ---\nTraceback (most recent call last):\n"
                                     "  File \"<stdin>\", line 6, in <module>\n"
                                     "RuntimeError: draft model failed to load: d2t has 32000 entries, vocab 128256\n",
        "tool_calls_made": 2, "duration_seconds": 12.0, "error": "RuntimeError: draft model failed to load"}))
    assert [(e.kind, e.message) for e in a.errors] == [
        ("traceback", "draft model failed to load: d2t has 32000 entries, vocab 128256")]
