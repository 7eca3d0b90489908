"""The Markdown of claude-code-log's combined page (``claude-code-log --format md``:
``combined_transcripts.md``) holds every session of a project, each under its heading ``📋
Session `abc12345`: summary`` (``title_SessionHeaderMessage``: the id's first 8 characters, the
summary after ": ", ``claude_code_log/markdown/renderer.py``); a fork's branch is a ``🌿 Branch``
heading inside its session. Read as one session before, as the HTML combined page was
(test_hardening65_claude_code_log_combined)."""

from __future__ import annotations

from pathlib import Path

from test_hardening63_claude_code_log_md import TRANSCRIPT

from spec_debug.session import analyze_path

_OTHER = """
<a id="session-0b7d41c2"></a>

# 📋 Session `0b7d41c2`: Lint the tree — Model: `claude-sonnet-4-5`

## 🤷 User: *now lint it*

**`2025-07-05`** `09:02:07`

now lint it, and mind this heading in my prompt:

```
# 📋 Session `notreal1`
```

### 💻 Bash: *Lint*

`09:04:07`

```bash
$ ruff check .
```

```
Exit code 1
E501 line too long
```
"""
COMBINED = TRANSCRIPT + _OTHER


def test_each_session_of_a_combined_markdown_page_is_a_session_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "combined_transcripts.md"
    path.write_text(COMBINED, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(s["id"], s["title"]) for s in doc["sessions"]] == [("test_ses", None), ("0b7d41c2", "Lint the tree")]
    assert [(c["session"], c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("test_ses", "python /tmp/decorator_example.py", False),
        ("test_ses", "python -m pytest tests/test_decorators.py -q", True),
        ("test_ses", "grep -n Error /tmp/server.log", False),
        ("0b7d41c2", "ruff check .", True),
    ]
    assert [(p["session"], p["text"][:20]) for p in doc["prompts"]] == [
        ("test_ses", "Hello Claude! Can yo"), ("test_ses", "Can you run that exa"), ("0b7d41c2", "now lint it, and min")]


def test_a_markdown_page_of_one_session_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "combined_transcripts.md"
    path.write_text(TRANSCRIPT, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["combined_transcripts"]
    assert len(doc["commands"]) == 3
