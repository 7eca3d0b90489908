"""A Codex session's page written by daaain/claude-code-log (its Codex provider renders
``exec_command`` and ``shell`` as Bash calls: ``providers/codex_tools.py``), the result Codex's own
text: the shell tool's "Exit code: N" header, unified exec's "Process exited with code N".

Before: no exit code for either (the command's failure known from Codex's words alone)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from test_hardening63_claude_code_log_md import TRANSCRIPT


def test_codex_commands_have_their_exit_codes(tmp_path: Path) -> None:
    text = TRANSCRIPT.replace("Exit code 1\nFAILED", "Exit code: 2\nWall time: 0.4 seconds\nOutput:\nFAILED")
    text = text.replace("```\nHello, Alice!", "```\nChunk ID: 77c0\nWall time: 0.1 seconds\n"
                        "Process exited with code 0\nOutput:\nHello, Alice!")
    path = tmp_path / "combined_transcripts.md"
    path.write_text(text, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"]][:2] == [
        ("python /tmp/decorator_example.py", False, 0),
        ("python -m pytest tests/test_decorators.py -q", True, 2)]


def test_a_command_whose_output_says_exit_code_later_keeps_none(tmp_path: Path) -> None:
    """Only the result's head is Codex's: a Claude Code command whose output mentions an exit code
    further down is left as Claude Code's reader reads it."""
    text = TRANSCRIPT.replace("```\nHello, Alice!", "```\nHello, Alice!\nProcess exited with code 3")
    path = tmp_path / "combined_transcripts.md"
    path.write_text(text, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert doc["commands"][0]["exit_code"] == 0


def test_the_html_page_too(tmp_path: Path) -> None:
    from test_hardening63_claude_code_log_html import PAGE
    page = PAGE.replace("<pre>FAILED tests/test_x.py", "<pre>Chunk ID: 9a1b\nProcess exited with code 4\nOutput:\n"
                        "FAILED tests/test_x.py", 1)
    path = tmp_path / "combined_transcripts.html"
    path.write_text(page, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["is_error"], c["exit_code"]) for c in doc["commands"]][0] == (True, 4)
