"""A Claude Code Bash result whose ``tool_result`` block lacks ``is_error`` (the API leaves the
field out when it is false, and a copy may keep only what is set) while the line's
``toolUseResult`` is the string the CLI writes for a failed call, ``"Error: "`` and the same
text, was read as exit 0 with no error: a failed ``ls`` looked like a success."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "aaaa0000-0000-4000-8000-0000000000e1"


def _line(n: int, kind: str, message: dict, **extra) -> str:
    return json.dumps({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None,
                       "isSidechain": False, "userType": "external", "cwd": "/root/eagle",
                       "sessionId": SESSION, "version": "2.1.90",
                       "timestamp": f"2026-06-15T10:00:0{n}.000Z", "message": message, **extra})


def _call(n: int, call_id: str, command: str) -> str:
    return _line(n, "assistant", {"id": f"msg{n}", "type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]})


def _result(n: int, call_id: str, text: str, tool_use_result) -> str:
    return _line(n, "user", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": call_id, "content": text}]}, toolUseResult=tool_use_result)


FAILED = "Exit code 2\nls: cannot access '/models/eagle3': No such file or directory"


def test_the_cli_error_string_makes_the_result_a_failure(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        _line(0, "user", {"role": "user", "content": "Why is the drafter missing on gpu01?"}),
        _call(1, "t1", "ssh gpu01 'ls /models/eagle3'"),
        _result(2, "t1", FAILED, "Error: " + FAILED),
        _call(3, "t2", "ssh gpu01 'ls /models'"),
        # a success's toolUseResult is the CLI's object; words that start "Error: " in the
        # output alone are no failure
        _result(4, "t2", "Error: notes.txt", {"stdout": "Error: notes.txt", "stderr": "",
                                               "interrupted": False, "isImage": False}),
    ]) + "\n")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("ssh gpu01 'ls /models/eagle3'", 2, True),
        ("ssh gpu01 'ls /models'", 0, False),
    ]
    assert [(e.kind, e.message, e.host) for e in a.errors] == [
        ("exit_code", "ls: cannot access '/models/eagle3': No such file or directory", "gpu01")]
