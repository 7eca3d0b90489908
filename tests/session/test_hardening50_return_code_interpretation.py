"""Claude Code's Bash tool does not fail a grep that matched nothing, a diff of files that
differ, a false test or a find that met an unreadable folder: each exited 1, and the CLI writes
no "Exit code 1" but ``toolUseResult.returnCodeInterpretation`` ("No matches found", "Files
differ", "Condition is false", "Some directories were inaccessible"; Claude Code
src/tools/BashTool/commandSemantics.ts). Those commands were recorded as exit 0. They exit 1
now, and are still no failure."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SID = "ab550000-0000-4000-8000-000000000055"


def _with_interpretation(w: _Writer, result_line: int, words: str) -> None:
    env = json.loads(w.lines[result_line])
    env["toolUseResult"]["returnCodeInterpretation"] = words
    w.lines[result_line] = json.dumps(env)


@pytest.mark.parametrize("command, output, words", [
    ("ssh gpu01 'ps aux | grep [s]glang'", "", "No matches found"),
    ("rg -n layers_to_capture /opt/sglang/python", "", "No matches found"),
    ("diff draft_a/config.json draft_b/config.json", "3c3\n<   \"num_hidden_layers\": 1\n---\n>   \"num_hidden_layers\": 2",
     "Files differ"),
    ("test -f /models/e3/d2t.npy", "", "Condition is false"),
])
def test_an_exit_1_the_tool_calls_no_failure(tmp_path: Path, command: str, output: str, words: str) -> None:
    w = _Writer(SID, None, datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("Is the EAGLE-3 server on gpu01 up?")
    _, result = w.bash(command, output)
    _with_interpretation(w, result, words)
    w.bash("ls /models", "e3")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(command, 1, False), ("ls /models", 0, False)]
    assert a.errors == []


def test_other_words_leave_the_status_as_it_was(tmp_path: Path) -> None:
    w = _Writer(SID, None, datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("Check the logs.")
    _, result = w.bash("tail -n 1 /var/log/sglang.log", "ok")
    _with_interpretation(w, result, "Done")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [c.exit_code for c in analyze_path(path).commands] == [0]


def test_stream_json_names_it_tool_use_result(tmp_path: Path) -> None:
    """``claude -p --output-format stream-json`` writes the CLI's copy as ``tool_use_result``."""
    def line(kind: str, content) -> dict:
        return {"type": kind, "message": {"role": "assistant" if kind == "assistant" else "user", "content": content},
                "parent_tool_use_id": None, "session_id": SID}
    result = line("user", [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": False,
                            "content": "(Bash completed with no output)"}])
    result["tool_use_result"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False,
                                 "returnCodeInterpretation": "No matches found", "noOutputExpected": False}
    stream = [
        {"type": "system", "subtype": "init", "cwd": "/work", "session_id": SID, "model": "claude-sonnet-4-5",
         "tools": ["Bash"], "uuid": "i0"},
        line("assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                            "input": {"command": "grep -c EAGLE3 /etc/sglang.env"}}]),
        result,
        {"type": "result", "subtype": "success", "is_error": False, "session_id": SID, "result": "Not configured."},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in stream) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [("grep -c EAGLE3 /etc/sglang.env", 1, False)]
    assert a.errors == []
