"""The status line an agent loop appends to a command's output ("[exit code: 137]") is not what
the command printed last.

formats.common.shell_result reads a role "tool" message's exit status from its last line
("[exit code: 1]", "exit_code=1", "returncode: 1") and keeps the text whole. A command a signal
killed, or one timeout(1) stopped, is named by its last printed line; that was the status line
itself ("[exit code: 137]", "timed out (exit 124): [exit code: 124]").

The output is a real run recorded in hardening 72 (failures5): subprocess.run(cmd, shell=True)
of a loader that printed three shard lines and died of SIGKILL: its stdout as captured, nothing
on stderr, status 137; the loop's status line appended.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

LOADED = ("Loading safetensors checkpoint shards: 1/8\nLoading safetensors checkpoint shards: 2/8\n"
          "Loading safetensors checkpoint shards: 3/8\n")


def test_a_killed_command_is_named_by_its_last_line_not_the_status():
    # before: ("signal", "SIGKILL", "[exit code: 137]")
    errors = extract_errors(LOADED + "[exit code: 137]", 137, True)
    assert [(e.kind, e.exception, e.message) for e in errors] == [
        ("signal", "SIGKILL", "Loading safetensors checkpoint shards: 3/8")]


def test_a_timeout_says_where_it_got_to():
    # before: "timed out (exit 124): exit_code=124"
    errors = extract_errors(LOADED + "exit_code=124\n", 124, True)
    assert [(e.kind, e.message) for e in errors] == [
        ("timeout", "timed out (exit 124): Loading safetensors checkpoint shards: 3/8")]


def test_returncode_line():
    errors = extract_errors(LOADED + "returncode: 139", 139, True)
    assert [(e.exception, e.message) for e in errors] == [
        ("SIGSEGV", "Loading safetensors checkpoint shards: 3/8")]


def test_a_status_alone_is_still_said():
    errors = extract_errors("[exit code: 137]", 137, True)
    assert [(e.kind, e.exception, e.message) for e in errors] == [("signal", "SIGKILL", "exit code 137")]


def test_the_session_error(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Load the EAGLE3 target on this box."},
        {"role": "assistant", "content": "Loading it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "python3 load.py"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": LOADED + "[exit code: 137]"},
    ]
    path = tmp_path / "load.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    analysis = analyze_path(path)
    assert [(e.kind, e.exception, e.message) for e in analysis.errors] == [
        ("signal", "SIGKILL", "Loading safetensors checkpoint shards: 3/8")]
