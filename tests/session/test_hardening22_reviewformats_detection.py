"""Detection of today's formats must not take other formats' files (review of 0be1f66, 55f7477).

A chat saved as Markdown with ``**User:**`` / ``**Assistant:**`` turns (many chat exporters write
these) is no Cline or Roo Code export unless the extension's marks are in it; at 41753b7 it was read
as a text log and its ``$ command`` lines were its commands, after 0be1f66 it was read as a Cline
export and they were lost (3 commands, 2 errors and the host before; none after)."""

from __future__ import annotations

from spec_debug.session import analyze_path

CHAT = """**User:**

My vLLM server with EAGLE-3 never accepts draft tokens. Here is what I ran:

```
$ ssh gpu-3 nvidia-smi
No devices were found
$ ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'
ValueError: draft vocab 32000 != target 151936
```

**Assistant:**

The draft vocab does not match the target's. Check the drafter's config.

**User:**

It says 32000.
"""


def test_a_chat_in_markdown_with_user_and_assistant_turns_is_still_a_text_log(tmp_path):
    md = tmp_path / "chat.md"
    md.write_text(CHAT, encoding="utf-8")
    doc = analyze_path(md).to_json()
    assert [c["command"] for c in doc["commands"]] == [
        "ssh gpu-3 nvidia-smi", "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"]
    assert "gpu-3" in doc["hosts"]


def test_an_export_started_without_a_task_tag_is_still_an_export(tmp_path):
    """The extension's marks (its environment details, a ``[Tool Use: …]`` call) name the export
    when the first turn has no ``<task>``."""
    md = tmp_path / "cline_task_oct-1-2024.md"
    md.write_text("**User:**\n\nrestart vllm on gpu-3\n<environment_details>\n# Current Time\n"
                  "10/1/2024, 9:12:00 AM (America/New_York, UTC-4:00)\n</environment_details>\n\n---\n\n"
                  "**Assistant:**\n\n[Tool Use: execute_command]\nCommand: ssh gpu-3 systemctl restart vllm\n\n---\n\n"
                  "**User:**\n\n[Tool]\nCommand executed in terminal within working directory '/w'. Exit code: 5\n"
                  "Output:\nFailed to restart vllm.service: Unit vllm.service not found.\n", encoding="utf-8")
    doc = analyze_path(md).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("ssh gpu-3 systemctl restart vllm", 5)]
    assert [p["text"] for p in doc["prompts"]] == ["restart vllm on gpu-3"]


def test_a_chat_reply_that_shows_a_cline_tool_tag_is_no_command(tmp_path):
    """Cline and Roo Code keep their replies as Anthropic text blocks; an OpenAI chat's string
    reply that shows the XML (explaining Cline's format) ran nothing, nor does prose that names a
    tool's tag bare. At 41753b7 neither was a command; after b362134 both were calls."""
    import json

    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([
        {"role": "user", "content": "how does cline run a command?"},
        {"role": "assistant", "content": "It writes <execute_command>\n<command>ssh gpu-3 reboot</command>\n"
                                         "</execute_command> and waits for approval."},
        {"role": "user", "content": [{"type": "text", "text": "and the tags alone?"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Each call opens with <execute_command> and "
                                                                   "ends with </execute_command>."}]},
    ]), encoding="utf-8")
    doc = analyze_path(chat).to_json()
    assert doc["commands"] == [] and doc["hosts"] == []
    assert doc["stats"]["tool_calls"] == 0


def test_a_history_outside_a_task_folder_keeps_its_own_name(tmp_path):
    """b362134 named every ``api_conversation_history.json`` by its folder: one saved in ``notes/``
    became session ``notes``; at 41753b7 it was ``api_conversation_history``. A task's folder, in
    ``tasks/`` or copied out of it (Cline's millisecond id, Roo Code's UUID), still names it."""
    import json

    history = [{"role": "user", "content": [{"type": "text", "text": "check gpu-3"}]}]
    named = {}
    for folder in ("notes", "tasks/my-task", "evidence/1777073160794",
                   "copy/5f0c6c1e-0000-4000-8000-000000000001"):
        path = tmp_path / folder / "api_conversation_history.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(history), encoding="utf-8")
        named[folder] = analyze_path(path).to_json()["sessions"][0]["id"]
    assert named == {"notes": "api_conversation_history", "tasks/my-task": "my-task",
                     "evidence/1777073160794": "1777073160794",
                     "copy/5f0c6c1e-0000-4000-8000-000000000001": "5f0c6c1e-0000-4000-8000-000000000001"}
