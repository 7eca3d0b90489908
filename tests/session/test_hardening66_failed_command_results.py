"""What an agent loop of one's own hands the model when a command fails, as an OpenAI chat tool
message holds it: the error its runner raised, as text (``String(error)`` in Node, ``str(e)`` in
Python), or the runner's result dict as JSON. Each says the exit status, and each was read as text
alone: the failed command had no exit code and did not count as a failed call.

- execa (sindresorhus/execa ``lib/return/error.js``, ``getErrorPrefix``/``createMessages``):
  ``Command failed with exit code N: <command>``, then stderr and stdout after blank lines;
- Python's ``subprocess.CalledProcessError`` (CPython ``Lib/subprocess.py``, ``__str__``):
  ``Command '<cmd>' returned non-zero exit status N.``;
- mini-swe-agent's environments (SWE-agent/mini-swe-agent ``src/minisweagent/environments/
  local.py``, ``execute``): ``{"output": ..., "returncode": N, "exception_info": ""}``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _session(tmp_path: Path, output: str, command: str = "ssh gpu07 nvcc --version") -> dict:
    messages = [
        {"role": "user", "content": "is CUDA installed on gpu07?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "run_command", "arguments": json.dumps({"command": command})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": output},
        {"role": "assistant", "content": "nvcc is missing on gpu07."},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": messages}))
    return analyze_path(path).to_json()


def _status(doc: dict) -> tuple:
    [command] = doc["commands"]
    main = next(a for a in doc["agents"] if a["id"] == "main")
    return command["exit_code"], main["failed_calls"]


@pytest.mark.parametrize(("output", "code"), [
    ("Command failed with exit code 127: ssh gpu07 nvcc --version\n\nbash: line 1: nvcc: command not found", 127),
    ("Error: Command failed with exit code 2: ssh gpu07 nvcc --version", 2),
    ("Command failed with exit code 1\nbash: line 1: nvcc: command not found", 1),
])
def test_an_execa_style_failure_gives_its_exit_code(tmp_path: Path, output: str, code: int) -> None:
    assert _status(_session(tmp_path, output)) == (code, 1)


@pytest.mark.parametrize("output", [
    "Command 'ssh gpu07 nvcc --version' returned non-zero exit status 127.",
    "Traceback (most recent call last):\n  File \"tools.py\", line 12, in run_command\n"
    "subprocess.CalledProcessError: Command '['ssh', 'gpu07', 'nvcc', '--version']' returned non-zero exit status 127.",
])
def test_a_python_called_process_error_gives_its_exit_code(tmp_path: Path, output: str) -> None:
    assert _status(_session(tmp_path, output)) == (127, 1)


def test_a_mini_swe_agent_result_dict_gives_its_returncode(tmp_path: Path) -> None:
    output = json.dumps({"output": "bash: line 1: nvcc: command not found\n", "returncode": 127, "exception_info": ""})
    doc = _session(tmp_path, output)
    assert _status(doc) == (127, 1)


def test_a_successful_result_dict_is_exit_code_zero(tmp_path: Path) -> None:
    output = json.dumps({"output": "Cuda compilation tools, release 12.4, V12.4.131\n", "returncode": 0})
    assert _status(_session(tmp_path, output)) == (0, 0)


@pytest.mark.parametrize("output", [
    # the words quoted inside a command's output, not its status
    "grep found:\nREADME.md: the tool says Command failed with exit code 1 when nvcc is missing",
    "Cuda compilation tools, release 12.4, V12.4.131",
    json.dumps({"output": "ok", "status": "done"}),
])
def test_other_results_still_say_no_exit_code(tmp_path: Path, output: str) -> None:
    assert _status(_session(tmp_path, output)) == (None, 0)
