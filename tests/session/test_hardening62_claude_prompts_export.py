"""A Claude Code session exported by the ``claude-prompts`` CLI ("# Claude Session Export", then a
``### User`` / ``### Assistant`` heading per message, its local time on the next line, and the
message's content: a prompt's text, else the JSON of its blocks), as committed in real projects
(goodsch/brain_explore ``claude-prompts/agent-bfa52189-untitled-full.md``, commit
027527979c4bb59f12b53bcd9694cf94feb6da6c; matheus-gomes' exports start with a plain-text prompt).
Before: read as a plain-text log, it had no prompt, no command and no error (a Bash call that
failed with a traceback was JSON prose). Now its messages are read as the Claude Code lines they
were exported from. The export below is written in that shape (the commands and outputs mine)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

HEAD = """# Claude Session Export

## Session Information

- **Session ID**: `b735bf9a-ae13-49e0-a0c2-2d72b14f50dd`
- **Export Mode**: Full Conversation
- **Total Messages**: 5 (3 user, 2 assistant)
- **First Message**: 11/30/2025, 11:38:19 PM
- **Last Message**: 11/30/2025, 11:48:40 PM
- **Project Path**: `/home/chris/dev/eagle3-bench`

---

## Conversation

"""


def _message(role: str, when: str, content) -> str:
    body = content if isinstance(content, str) else json.dumps(content, indent=2, ensure_ascii=False)
    return f"### {role}\n> {when}\n\n{body}\n\n---\n\n"


def _export(tmp_path: Path) -> Path:
    text = HEAD + "".join([
        _message("User", "11/30/2025, 11:38:19 PM", "why does the draft server crash on start?"),
        _message("Assistant", "11/30/2025, 11:38:20 PM", [
            {"type": "text", "text": "I'll start the check script."},
            {"type": "tool_use", "id": "toolu_01UB1BhDonPDrPscq85nfgoj", "name": "Bash",
             "input": {"command": "python3 checks/load_draft.py", "description": "Load the draft", "timeout": 600000}}]),
        _message("User", "11/30/2025, 11:48:23 PM", [
            {"tool_use_id": "toolu_01UB1BhDonPDrPscq85nfgoj", "type": "tool_result",
             "content": "Exit code 1\nTraceback (most recent call last):\n  File \"checks/load_draft.py\", line 4, "
                        "in <module>\n    import safetensors\nModuleNotFoundError: No module named 'safetensors'",
             "is_error": True}]),
        _message("Assistant", "11/30/2025, 11:48:27 PM", [
            {"type": "tool_use", "id": "toolu_019xTsycmG471SU8gNmHonho", "name": "Bash",
             "input": {"command": "pip install safetensors", "description": "Install it"}}]),
        _message("User", "11/30/2025, 11:48:40 PM", [
            {"tool_use_id": "toolu_019xTsycmG471SU8gNmHonho", "type": "tool_result",
             "content": "Successfully installed safetensors-0.6.2", "is_error": False}]),
    ])
    path = tmp_path / "b735bf9a-untitled-full.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_exported_messages_are_the_sessions(tmp_path: Path) -> None:
    doc = analyze_path(_export(tmp_path)).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why does the draft server crash on start?"]
    assert [(c["command"], c["is_error"], c["cwd"], c["timestamp"]) for c in doc["commands"]] == [
        ("python3 checks/load_draft.py", True, "/home/chris/dev/eagle3-bench", "2025-11-30T23:38:20"),
        ("pip install safetensors", False, "/home/chris/dev/eagle3-bench", "2025-11-30T23:48:27")]
    assert [(e["kind"], e["exception"], e["message"]) for e in doc["errors"]] == [
        ("traceback", "ModuleNotFoundError", "No module named 'safetensors'")]


def test_a_plain_markdown_note_with_the_same_words_is_no_export(tmp_path: Path) -> None:
    """A note that quotes the title lower down (a README about the tool) stays a text log."""
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nThe tool writes:\n\n# Claude Session Export\n\n- **Export Mode**: Full Conversation\n"
                    "\n### User\n> 11/30/2025, 11:38:19 PM\n\nhello\n", encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert doc["prompts"] == []
