"""A short Claude Code session of Bash runs, written as the CLI writes one: a prompt, then for
each run its ``tool_use`` line and its ``tool_result`` line."""

from __future__ import annotations

import json
from pathlib import Path


def write_bash_session(folder: Path, session_id: str, prompt: str, runs: list[tuple[str, str]]) -> Path:
    """``<folder>/<session_id>.jsonl`` holding ``prompt`` and each (command, output) of ``runs``."""

    def line(uuid: str, role: str, content, second: int) -> dict:
        return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": session_id, "isSidechain": False,
                "timestamp": f"2026-01-10T09:00:{second:02d}Z", "cwd": "/work",
                "message": {"role": role, "content": content}}

    lines = [line("u1", "user", prompt, 0)]
    for i, (command, output) in enumerate(runs):
        lines.append(line(f"a{i}", "assistant", [{"type": "tool_use", "id": f"t{i}", "name": "Bash",
                                                  "input": {"command": command}}], 2 + 2 * i))
        lines.append(line(f"r{i}", "user", [{"type": "tool_result", "tool_use_id": f"t{i}", "content": output,
                                             "is_error": False}], 3 + 2 * i))
    path = folder / f"{session_id}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path
