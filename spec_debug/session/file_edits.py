"""Edits an agent made with a file tool (Claude Code's Edit and Write, Codex's apply_patch, ...):
no command, so no CommandRecord, yet often the fix. The postmortem's Resolution tells the changes
a rise in throughput followed; it told the relaunch after an Edit of the draft's config.json, and
not the edit. Kept outside the JSON contract (its records are the commands'), one per call."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class FileEdit:
    session: str
    seq: int
    agent: str
    host: str | None
    path: str
    tool: str
    category: str = "edit"
    """As a command's: the postmortem sorts it with the edits and relaunches it reads."""
