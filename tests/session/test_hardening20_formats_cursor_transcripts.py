"""A Cursor agent transcript (``~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl``:
``{"role", "message": {"content": [text | tool_use]}}``) has its shell calls as commands. Before,
the ``message`` wrapper was not looked into: a user prompt and replies at most, no command.
File: data_hardening20_formats/cursor_agent_transcript.jsonl (SOURCE.md there)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

REAL = Path(__file__).parent / "data_hardening20_formats" / "cursor_agent_transcript.jsonl"


def test_the_shell_calls_of_a_cursor_transcript_are_commands():
    a = analyze_path(REAL)
    assert a.sessions[0]["format"] == "openai"
    assert [(c.command, c.description) for c in a.commands] == [
        ("ls -la /tmp", "List directory contents"), ("git status", "Check git status")]
    assert [p.text for p in a.prompts][:1] == ["<user_query>\nrun ls command\n</user_query>"]
