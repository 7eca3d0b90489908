"""Newer Gemini CLIs wrap the setup turn they write themselves in ``<session_context>``
(google-gemini/gemini-cli ``packages/core/src/utils/environmentContext.ts``
``getEnvironmentContext``, since 9178b31629 / #17263): ``<session_context>\\nThis is the Gemini
CLI. We are setting up the context for our chat.\\n…</session_context>``. Its ``/chat save``
checkpoint and its ``/chat share`` Markdown keep that turn first. Before, the wrapped turn was read
as the person's first prompt (only the bare sentence was known as the CLI's); now it is the CLI's
context, as the unwrapped one was, and the person's question is the only prompt."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

QUESTION = "why does sglang on gpu01 crash?"


def _setup(wrapped: bool) -> str:
    body = ("This is the Gemini CLI. We are setting up the context for our chat.\n"
            "Today's date is Sunday, March 1, 2026 (formatted according to the user's locale).\n"
            "My operating system is: linux\n"
            "The project's temporary directory is: /home/dd/.gemini/tmp/proj\n"
            "- **Workspace Directories:**\n  - /home/dd/proj\n")
    return f"<session_context>\n{body}\n</session_context>" if wrapped else body


def _history(setup: str) -> list[dict]:
    return [
        {"role": "user", "parts": [{"text": setup}]},
        {"role": "user", "parts": [{"text": QUESTION}]},
        {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command",
                                                      "args": {"command": "ssh gpu01 tail -n 5 /tmp/sglang.log"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command", "response": {
            "output": "Command: ssh gpu01 tail -n 5 /tmp/sglang.log\nDirectory: (root)\n"
                      "Output: RuntimeError: CUDA error: out of memory\nError: (none)\nExit Code: 1"}}}]},
        {"role": "model", "parts": [{"text": "The server ran out of GPU memory."}]},
    ]


def _share(history: list[dict]) -> str:
    """As ``/chat share FILE.md`` writes it (gemini-cli ``historyExportUtils.ts``)."""
    def part(p: dict) -> str:
        if "functionCall" in p:
            return "**Tool Command**:\n```json\n" + json.dumps(p["functionCall"], indent=2) + "\n```"
        if "functionResponse" in p:
            return "**Tool Response**:\n```json\n" + json.dumps(p["functionResponse"], indent=2) + "\n```"
        return p["text"]
    return "\n\n---\n\n".join(
        f"## {'USER 🧑‍💻' if t['role'] == 'user' else 'MODEL ✨'}\n\n" + "".join(part(p) for p in t["parts"])
        for t in history)


def test_a_checkpoint_s_wrapped_setup_turn_is_no_prompt(tmp_path):
    path = tmp_path / "checkpoint-oom.json"
    path.write_text(json.dumps(_history(_setup(wrapped=True))), encoding="utf-8")
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == [QUESTION]
    assert [(c.host, c.exit_code) for c in a.commands] == [("gpu01", 1)]


def test_a_shared_chat_s_wrapped_setup_turn_is_no_prompt(tmp_path):
    path = tmp_path / "gemini-share.md"
    path.write_text(_share(_history(_setup(wrapped=True))), encoding="utf-8")
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == [QUESTION]
    assert [c.command for c in a.commands] == ["ssh gpu01 tail -n 5 /tmp/sglang.log"]


def test_the_unwrapped_setup_turn_and_a_typed_tag_read_as_before(tmp_path):
    path = tmp_path / "checkpoint-old.json"
    path.write_text(json.dumps(_history(_setup(wrapped=False))), encoding="utf-8")
    assert [p.text for p in analyze_path(path).prompts] == [QUESTION]
    # a person's message that only mentions the tag is theirs
    typed = "<session_context> is what gemini adds; " + QUESTION
    path = tmp_path / "checkpoint-typed.json"
    path.write_text(json.dumps(_history(typed)), encoding="utf-8")
    assert [p.text for p in analyze_path(path).prompts] == [typed, QUESTION]
