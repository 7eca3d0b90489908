"""A Claude Code session turned into Markdown by kiliman/claude-transcript ("# 🤖 Claude Code
Transcript", a ``> [!IMPORTANT]`` quote per prompt, ``💻 **Bash: description**`` with the command in
a ``shell`` fence and Claude Code's result text in the next one, "Error: " first where the call
failed; kiliman/claude-transcript ``src/OutputFormatter.ts``), as committed in that repository
(``.claude-transcripts/2025-08-10_14-42-56Z-i-would-like-to-move_bc761bdf.md``, commit
59057b38c21d3b3baaf15ba917effb5aaa5d8be7). Before: a plain-text log where only the first shell fence
was a command: no prompt, the later commands lost, a refused call unseen. Now each part is read as
the Claude Code line it was made from. The transcript below is in that shape (its commands mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TRANSCRIPT = """# 🤖 Claude Code Transcript
## 🗂️ ~/Projects/eagle3-bench
🕒 2025-08-10 14:42:56 - 2025-08-11 15:07:07
Session ID: `bc761bdf-e1dd-4cda-b40f-7ee5c8514a3c`

> [!IMPORTANT]
> `/clear`\\\\
> clear

> [!IMPORTANT]
> why is the draft server so slow?
> it was fine yesterday

I'll check the acceptance first. The plan:

- **Acceptance**
- **Server log**

📖 **Read: checks/accept_len.py**
([view file](contents/accept_len-529babf0.py))

💻 **Bash: Run the accept length check**
```shell
python3 checks/accept_len.py
```
```
Error: Traceback (most recent call last):
  File "checks/accept_len.py", line 3, in <module>
    import torch
ModuleNotFoundError: No module named 'torch'
```

💻 **Bash: Check git status**
```shell
git status
```
```
On branch main
nothing to commit, working tree clean
```

💻 **Bash: Run TypeScript type check**
```shell
npm run typecheck
```
> [!CAUTION]
> Error: The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.

> [!WARNING]
> [Request interrupted by user for tool use]

> [!IMPORTANT]
> run it with the venv python
"""


def _doc(tmp_path: Path, text: str = TRANSCRIPT) -> dict:
    path = tmp_path / "2025-08-10_14-42-56Z-why-is-the-draft_bc761bdf.md"
    path.write_text(text, encoding="utf-8")
    return analyze_path(path).to_json()


def test_the_transcripts_prompts_commands_and_errors(tmp_path: Path) -> None:
    doc = _doc(tmp_path)
    assert [p["text"] for p in doc["prompts"]] == [
        "why is the draft server so slow?\nit was fine yesterday", "run it with the venv python"]
    assert [(c["command"], c["is_error"], c["cwd"]) for c in doc["commands"]] == [
        ("python3 checks/accept_len.py", True, "~/Projects/eagle3-bench"),
        ("git status", False, "~/Projects/eagle3-bench"),
        ("npm run typecheck", True, "~/Projects/eagle3-bench")]
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [
        ("traceback", "ModuleNotFoundError"), ("rejected", None)]
    assert doc["sessions"][0]["first_timestamp"] == "2025-08-10T14:42:56"
    assert doc["stats"]["tool_calls"] == 4  # Read and the three Bash calls; no list item of the text


def test_a_clean_output_with_error_words_is_no_failure(tmp_path: Path) -> None:
    """The result carries Claude Code's status ("Error: " first where the call failed): a grep
    that found a failure in a log is no failed command."""
    text = TRANSCRIPT.split("💻 **Bash: Check git status**")[0] + """💻 **Bash: Look for the error**
```shell
grep -n Error logs/server.log || true
```
```
40:ERROR: failed to load draft weights
```
"""
    doc = _doc(tmp_path, text)
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("python3 checks/accept_len.py", True), ("grep -n Error logs/server.log || true", False)]
    assert [e["kind"] for e in doc["errors"]] == ["traceback"]


def test_a_note_that_quotes_the_title_is_a_text_log(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "# Notes\n\nThe tool writes `# 🤖 Claude Code Transcript` first.\n\n> [!IMPORTANT]\n> hi\n")
    assert doc["prompts"] == []
