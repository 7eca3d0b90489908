"""A short session as Claude Code writes it (incident_story._Writer): a prompt, one command that
fails, and the agent changing approach after it, so distill keeps that command as a step."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from tests.session.incident_story import _Writer

PIVOT = "That did not work. Let me try a different approach: check the checkpoint on the host instead."


def failed_then_pivot(tmp_path: Path, failing: str, session: str) -> Path:
    m = _Writer(session, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash(failing, "Error: draft_vocab_size 32000 mismatch", exit_code=1)
    m.bash("ls /models/e3", "config.json", exit_code=0, text=PIVOT)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path
