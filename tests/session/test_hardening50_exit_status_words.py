"""An agent loop of one's own writes a command's status in its own words: ``exit code: 2``,
``[exit code: 2]``, ``exit_code=2``, ``Exit status: 2``, ``returncode: 2``, or ``go run``'s last
line ``exit status 2``. Only Codex's ``Exit code: N`` and ``Process exited with code N`` were
read, so such a failed command had no exit code (and a run that printed no traceback, no error)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

WORDS = ["exit code: 2", "[exit code: 2]", "exit_code=2", "Exit status: 2", "returncode: 2", "Return code: 2",
         "EXIT CODE 2"]


@pytest.mark.parametrize("status", WORDS)
def test_a_numbered_log_tool_message_opening_with_the_status(tmp_path: Path, status: str) -> None:
    path = tmp_path / "session.log"
    path.write_text("[msg 1] assistant: Checking the draft config.\n"
                    "[bash] ssh gpu01 'cat /models/e3/config.json'\n"
                    f"[msg 2] tool: {status}\n"
                    "cat: /models/e3/config.json: No such file or directory\n"
                    "[msg 3] assistant: The path is wrong.\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.exit_code, c.is_error) for c in a.commands] == [("gpu01", 2, True)]


@pytest.mark.parametrize("status", [*WORDS, "exit status 2"])
def test_an_openai_tool_message_ending_with_the_status(tmp_path: Path, status: str) -> None:
    messages = [
        {"role": "user", "content": "Build the draft loader on gpu01."},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "shell", "arguments": json.dumps({"command": "ssh gpu01 'cd /opt/loader && go run .'"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": f"building\nload: missing d2t\n{status}"},
        {"role": "assistant", "content": "The d2t map is missing."},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages), encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.exit_code, c.is_error) for c in a.commands] == [("gpu01", 2, True)]


@pytest.mark.parametrize("line", ["the exit code: 2 was expected", "exit codes: 0, 1, 2", "exit code: two"])
def test_a_sentence_about_exit_codes_is_no_status(tmp_path: Path, line: str) -> None:
    messages = [
        {"role": "user", "content": "Check it."},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "shell", "arguments": json.dumps({"command": "cat notes.txt"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": f"notes\n{line}"},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages), encoding="utf-8")
    assert [c.exit_code for c in analyze_path(path).commands] == [None]
