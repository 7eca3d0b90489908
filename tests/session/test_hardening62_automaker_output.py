"""Automaker's ``agent-output.md`` (``.automaker/features/<feature>/agent-output.md``): the model's
text and each Claude Code call as ``🔧 Tool: Bash``, ``Input:`` and the input as indented JSON, no
results (yinkev/praDeep ``.automaker/features/async-task-queue/agent-output.md``, commit
41f14ec6e16954bcba44a1561406ddee4f9a8405). Before: a text log with no command. Now its calls are
the session's commands (their outcome unknown: none is recorded), with the text that led to each.
The file below is in that shape (its commands mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

OUTPUT = """
🔧 Tool: Read
Input: {
  "file_path": "/Users/kyin/Projects/bench/README.md"
}
Now let me run the test to verify the implementation:

🔧 Tool: Bash
Input: {
  "command": "cd /Users/kyin/Projects/bench && python3 -m pytest tests/test_accept.py 2>&1 | tail -50",
  "description": "Run the acceptance test",
  "timeout": 120000
}
The tests are failing because there's no server running. Let me check the types instead:

🔧 Tool: Bash
Input: {
  "command": "/bin/zsh -lc \\"python3 - <<'PY'\\nprint({'a': 1})\\n}\\nPY\\"",
  "description": "A heredoc whose script holds braces"
}

Excellent! All good.
"""


HEREDOC = "/bin/zsh -lc \"python3 - <<'PY'\nprint({'a': 1})\n}\nPY\""


def test_automakers_calls_are_the_sessions_commands(tmp_path: Path) -> None:
    path = tmp_path / "agent-output.md"
    path.write_text(OUTPUT, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["description"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("cd /Users/kyin/Projects/bench && python3 -m pytest tests/test_accept.py 2>&1 | tail -50",
         "Run the acceptance test", None, False),
        (HEREDOC,
         "A heredoc whose script holds braces", None, False)]
    assert doc["commands"][1]["why"].startswith("The tests are failing because there's no server running.")
    assert doc["errors"] == [] and doc["stats"]["tool_calls"] == 3


def test_one_quoted_call_in_a_note_is_a_text_log(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text('Automaker writes:\n\n🔧 Tool: Bash\nInput: {\n  "command": "ls"\n}\n', encoding="utf-8")
    assert analyze_path(path).to_json()["stats"]["tool_calls"] == 0
