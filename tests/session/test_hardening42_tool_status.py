"""An OpenAI chat-completions log keeps a command's result in a ``role: tool`` message, and the
agent loops that write one say how the command ended in its text: Codex's shell tool sends its
output back as JSON (``{"output": ..., "metadata": {"exit_code": 1, "duration_seconds": 0.4}}``),
its formatted shell result opens with ``Exit code: 1``, and a loop of one's own appends a last
line ``Exit code: 1``. None of these was read: the commands had no exit code, a failed ``ls``
read as a success, and a traceback inside the JSON kept its escaped newlines."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function",
                            "function": {"name": "shell", "arguments": json.dumps({"command": command})}}]}


def _session(tmp_path: Path, *results: tuple[str, str, str]) -> Path:
    messages = [{"role": "system", "content": "You are a coding agent."},
                {"role": "user", "content": "EAGLE-3 acceptance is low on gpu01, find out why"}]
    for n, (command, content, _) in enumerate(results):
        messages += [_call(f"call_{n}", command), {"role": "tool", "tool_call_id": f"call_{n}", "content": content}]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": messages}, indent=1))
    return path


def test_codex_json_shell_output_gives_its_exit_code_and_its_lines(tmp_path: Path) -> None:
    traceback = ('Traceback (most recent call last):\n  File "/opt/sglang/launch.py", line 3, in <module>\n'
                 "    load_draft()\nValueError: draft vocab 32000 does not match target vocab 128256\n")
    path = _session(
        tmp_path,
        ("ssh gpu01 ls /models/eagle3", json.dumps({"output": "ls: cannot access '/models/eagle3': No such file "
                                                              "or directory\n",
                                                    "metadata": {"exit_code": 2, "duration_seconds": 0.1}}), ""),
        ("ssh gpu01 python launch.py", json.dumps({"output": traceback,
                                                   "metadata": {"exit_code": 1, "duration_seconds": 4.2}}), ""),
        ("ssh gpu01 nvidia-smi -L", json.dumps({"output": "GPU 0: NVIDIA H100 80GB HBM3\n", "exit_code": 0,
                                                "wall_time_seconds": 0.2}), ""),
    )
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("ssh gpu01 ls /models/eagle3", "gpu01", 2, True),
        ("ssh gpu01 python launch.py", "gpu01", 1, True),
        ("ssh gpu01 nvidia-smi -L", "gpu01", 0, False),
    ]
    messages = {e.command_seq: e.message for e in a.errors}
    assert messages[a.commands[0].seq] == "ls: cannot access '/models/eagle3': No such file or directory"
    assert messages[a.commands[1].seq] == "draft vocab 32000 does not match target vocab 128256"
    doc = json.loads(analysis_json(a))
    assert [c["exit_code"] for c in doc["commands"]] == [2, 1, 0]


def test_an_exit_code_line_in_a_tool_message_is_the_commands_status(tmp_path: Path) -> None:
    path = _session(
        tmp_path,
        # Codex's formatted shell result: the status first, then the wall time and the output
        ("curl -s localhost:30000/health", "Exit code: 7\nWall time: 0.1 seconds\nOutput:\n", ""),
        # unified exec's header
        ("ssh gpu01 nvidia-smi", "Chunk ID: 4f2a\nWall time: 0.3 seconds\nProcess exited with code 127\n"
                                 "Original token count: 9\nOutput:\nbash: nvidia-smi: command not found\n", ""),
        # an agent loop of one's own: the status as the last line
        ("python check_vocab.py", "draft vocab: 32000\ntarget vocab: 128256\nExit code: 3", ""),
        ("python check_vocab.py --fix", "draft vocab: 128256\ntarget vocab: 128256\nExit code: 0\n", ""),
        # a status quoted in the middle of the output is the output's, not the command's
        ("cat run.log", "step 1\nExit code: 1\nstep 2\nstep 3\nstep 4\nstep 5\nstep 6\nall done", ""),
    )
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("curl -s localhost:30000/health", 7, True),
        ("ssh gpu01 nvidia-smi", 127, True),
        ("python check_vocab.py", 3, True),
        ("python check_vocab.py --fix", 0, False),
        ("cat run.log", None, False),
    ]



def test_another_tools_json_result_is_kept_whole() -> None:
    from spec_debug.session.formats.common import shell_result

    # {"output", "error"} with no exit code is some other tool's result: its "error" is not dropped
    result = json.dumps({"output": "2 of 3 shards copied", "error": "Permission denied: /models/shard3"})
    assert shell_result(result) == (result, None)
    wrapped = json.dumps({"output": "copied\n", "metadata": {"exit_code": 0, "duration_seconds": 1.0}})
    assert shell_result(wrapped) == ("copied\n", 0)
