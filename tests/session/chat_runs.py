"""An OpenAI chat messages list of shell runs, as an agent loop of one's own saves it: a prompt,
then for each run the assistant's ``tool_calls`` entry and the ``tool`` message with its output
(no exit status: a ``tool`` message holds only content, TRANSCRIPTS.md section 1e)."""

from __future__ import annotations

import json
from pathlib import Path


def write_chat_runs(path: Path, prompt: str, runs: list[tuple[str, str]]) -> Path:
    """``path`` holding ``prompt`` and each (command, output) of ``runs`` as a bash tool's calls."""
    messages = [{"role": "user", "content": prompt}]
    for i, (command, output) in enumerate(runs):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": output})
    path.write_text(json.dumps(messages, indent=1), encoding="utf-8")
    return path
