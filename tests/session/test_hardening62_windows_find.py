"""Windows' find.exe answering a POSIX ``find``: an agent on Windows whose commands run through
cmd.exe typed ``find src -name "*.test.js"`` and got "Access denied - SRC" / "File not found -
-NAME" (find.exe is a string search: it takes the words for files to search), with no exit status
in its messages log (rocketvish/bearing-research ``transcript.jsonl`` at
0513886c53b96665f5425d230a3633a5af7eae37, the Anthropic-style messages list below is in its shape).
Before: a clean command whose output was two lines. Now find.exe's own failure lines say it
failed, as cmd.exe's "'ls' is not recognized ..." beside it already did."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

from tests.session.messages_runs import write_messages_runs


def _transcript(tmp_path: Path, command: str, output: str) -> Path:
    return write_messages_runs(tmp_path / "transcript.jsonl", "Build a complete task management API.",
                               [(command, output)], system="You are a coding agent. You have access to three "
                                                           "tools: read_file, write_file, and run_command.",
                               said="Let me check what test files exist:")


@pytest.mark.parametrize(("command", "output", "said"), [
    ('find src -name "*.test.js"', "Access denied - SRC\nFile not found - -NAME\n", "Access denied - SRC"),
    ('find . -name "*.pyc" -delete', "Access denied - .\nFile not found - -NAME\nFile not found - -DELETE\n",
     "Access denied - ."),
    ("find -maxdepth 2 -name config.json", "FIND: Parameter format not correct\n", "FIND: Parameter format not correct"),
])
def test_find_exe_refusing_posix_words_is_a_failed_command(tmp_path: Path, command: str, output: str,
                                                           said: str) -> None:
    doc = analyze_path(_transcript(tmp_path, command, output)).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [(command, True)]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("tool_error", said)]


def test_a_find_that_listed_files_is_clean(tmp_path: Path) -> None:
    doc = analyze_path(_transcript(tmp_path, 'find src -name "*.test.js"',
                                   "src/reports.test.js\nsrc/routes/tasks.test.js\n")).to_json()
    assert [(c["is_error"]) for c in doc["commands"]] == [False]
    assert doc["errors"] == []
