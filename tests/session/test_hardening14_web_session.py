"""A Claude Code web session as the API serves it and simonw/claude-code-transcripts saves it
(``{"loglines": [records]}``, tests/session/data_h14/README.md): read before as one record of an
unknown type, so the postmortem told of one event, no prompt and no command. Now each element
of ``loglines`` is a record of the session, as in its JSONL."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

DATA = Path(__file__).resolve().parent / "data_h14"
WEB = DATA / "claude_web_loglines.json"


def _blocks(kind: str) -> list[dict]:
    records = json.loads(WEB.read_text(encoding="utf-8"))["loglines"]
    return [b for r in records if isinstance(r["message"]["content"], list)
            for b in r["message"]["content"] if b.get("type") == kind]


def test_a_web_session_is_read_as_its_records() -> None:
    (source,) = discover(WEB)
    assert source.format == "claude-code"
    a = analyze_path(WEB)
    assert a.stats["unknown_types"] == 0
    assert a.stats["tool_calls"] == len(_blocks("tool_use")) == 12
    failed = [b for b in _blocks("tool_result") if b.get("is_error")]
    assert [c.command for c in a.commands if c.is_error] == ["python -m pytest tests/ -v"] and len(failed) == 1
    assert [p.text for p in a.prompts][:2] == ["Create a simple Python function to add two numbers",
                                                "Now edit the file to add a subtract function"]
    assert a.sessions[0]["first_timestamp"] == "2025-12-24T10:00:00.000Z"


def test_a_compact_web_session_on_one_line(tmp_path: Path) -> None:
    """The API's body as saved without indentation: one line."""
    compact = tmp_path / "session_01abc.json"
    compact.write_text(json.dumps(json.loads(WEB.read_text(encoding="utf-8"))), encoding="utf-8")
    a = analyze_path(compact)
    assert a.stats["tool_calls"] == 12 and len(a.prompts) == 5
