"""A Claude Code session file with nothing in it, named alone: ``<sessionId>.jsonl`` (a UUID, as
the CLI names a session's file, TRANSCRIPTS.md section 1a) left empty, or all NUL bytes by a crash
(anthropics/claude-code issue #76059), with no folder beside it. It was read as an empty "text"
log; it is an empty Claude Code session. Another empty file is still what it was."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "0a1b2c3d-7070-4000-8000-00000000e0e0"


def _sessions(path: Path) -> list[tuple]:
    doc = analyze_path(path).to_json()
    return [doc["format"], *[(s["id"], s["format"], s["events"]) for s in doc["sessions"]]]


@pytest.mark.parametrize("body", [b"", b"\n\n", b"\0" * 4096], ids=["empty", "blank-lines", "nul-bytes"])
def test_an_empty_session_file_named_alone_is_an_empty_claude_code_session(tmp_path: Path, body: bytes) -> None:
    path = tmp_path / "-w" / f"{SID}.jsonl"
    path.parent.mkdir()
    path.write_bytes(body)
    assert _sessions(path) == ["claude-code", (SID, "claude-code", 0)]


def test_compressed_too(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl.gz"
    path.write_bytes(gzip.compress(b""))
    assert _sessions(path) == ["claude-code", (SID, "claude-code", 0)]


def test_an_empty_file_of_another_name_is_still_an_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    assert _sessions(path) == ["text", ("empty", "text", 0)]


def test_a_session_file_with_lines_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text(json.dumps({"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": SID,
                                "timestamp": "2026-07-25T10:00:00.000Z", "cwd": "/w",
                                "message": {"role": "user", "content": "why is acceptance low on gpu01?"}}) + "\n")
    assert _sessions(path) == ["claude-code", (SID, "claude-code", 1)]
