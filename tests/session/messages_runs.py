"""An Anthropic-style messages list of shell runs, one ``{"role", "content"}`` object a line, as an
agent loop of one's own saves it (rocketvish/bearing-research ``transcript.jsonl`` at 0513886c):
an optional system message, a prompt, then for each run the assistant's ``tool_use`` block of a
``run_command`` tool and the user's ``tool_result`` with its output, which records no exit status."""

from __future__ import annotations

import json
from pathlib import Path


def write_messages_runs(path: Path, prompt: str, runs: list[tuple[str, str]], system: str | None = None,
                        said: str | None = None) -> Path:
    """``path`` holding ``prompt`` and each (command, output) of ``runs`` as ``run_command`` calls;
    ``said``: a text block the assistant writes before each call."""
    lines: list[dict] = [{"role": "system", "content": system}] if system else []
    lines.append({"role": "user", "content": prompt})
    for n, (command, output) in enumerate(runs):
        call_id = f"toolu_01Run{n}"
        blocks = [{"type": "text", "text": said}] if said else []
        blocks.append({"type": "tool_use", "id": call_id, "name": "run_command", "input": {"command": command},
                       "caller": {"type": "direct"}})
        lines.append({"role": "assistant", "content": blocks})
        lines.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output}]})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path
