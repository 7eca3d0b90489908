"""A shell tool of one's own often answers an OpenAI-chat tool call with the process as JSON,
``{"stdout", "stderr", "returncode"}`` (or ``exit_code``, ``exitCode``, ``return_code``): the
result was kept whole, so a failed ``ssh`` had no exit status and its error's message was the
JSON text, and a success said nothing of its exit 0. The streams are the output now, and the
number is the exit code; JSON of any other shape is still kept as it came."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": "", "tool_calls": [{
        "id": call_id, "type": "function",
        "function": {"name": "execute_command", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def test_process_json_results_give_exit_codes_and_output(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([
        {"role": "user", "content": "Why is EAGLE-3 slow on gpu5?"},
        _call("c1", "ssh gpu5 nvidia-smi"),
        _result("c1", json.dumps({"stdout": "", "stderr": "ssh: connect to host gpu5 port 22: "
                                  "Connection timed out\n", "exit_code": 255})),
        _call("c2", "ssh gpu6 'python check.py'"),
        _result("c2", json.dumps({"returncode": 1, "stdout": "loading drafter\n", "stderr":
                                  "Traceback (most recent call last):\n  File \"check.py\", line 3, in <module>\n"
                                  "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"})),
        _call("c3", "ssh gpu6 nvidia-smi -L"),
        _result("c3", json.dumps({"success": True, "stdout": "GPU 0: NVIDIA H100 80GB HBM3\n", "stderr": "",
                                  "returncode": 0})),
        _call("c4", "ssh gpu6 hostname"),
        _result("c4", json.dumps({"exitCode": 0, "stdout": "gpu6\n", "stderr": ""})),
        # not a process: no exit status in it, kept as it came
        _call("c5", "ssh gpu6 'cat /etc/motd'"),
        _result("c5", json.dumps({"stdout": "Welcome", "note": "truncated"})),
    ]))
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("ssh gpu5 nvidia-smi", 255, True),
        ("ssh gpu6 'python check.py'", 1, True),
        ("ssh gpu6 nvidia-smi -L", 0, False),
        ("ssh gpu6 hostname", 0, False),
        ("ssh gpu6 'cat /etc/motd'", None, False),
    ]
    assert [(e.kind, e.message, e.host) for e in a.errors] == [
        ("connection", "ssh: connect to host gpu5 port 22: Connection timed out", "gpu5"),
        ("cuda_error", "CUDA error: no kernel image is available for execution on the device", "gpu6"),
    ]


def test_a_responses_input_list_reads_the_process_json_too(tmp_path: Path) -> None:
    # An Agents SDK session's input list (result.to_input_list()): function_call items answered
    # by function_call_output, read as a Codex rollout's response items are
    path = tmp_path / "session.json"
    path.write_text(json.dumps([
        {"role": "user", "content": "EAGLE-3 is slow on gpu11?"},
        {"type": "function_call", "call_id": "call_1", "name": "run_shell", "id": "fc_1", "status": "completed",
         "arguments": json.dumps({"command": "ssh gpu11 nvidia-smi"})},
        {"type": "function_call_output", "call_id": "call_1", "output": json.dumps(
            {"stdout": "", "stderr": "ssh: connect to host gpu11 port 22: Connection refused", "returncode": 255})},
    ]))
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [("ssh gpu11 nvidia-smi", 255, True)]
    assert [(e.kind, e.message) for e in a.errors] == [
        ("connection", "ssh: connect to host gpu11 port 22: Connection refused")]
