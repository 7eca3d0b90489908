"""A Goose session (``~/.local/share/goose/sessions/<id>.jsonl``: a metadata line, then ``{role,
created, content: [text | toolRequest | toolResponse]}``) has its shell calls as commands paired
with their results, and its metadata line is no record of an unknown type. Before, Goose's
blocks were of no known type: no command. File: data_hardening20_formats/goose_session.jsonl
(SOURCE.md there)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

REAL = Path(__file__).parent / "data_hardening20_formats" / "goose_session.jsonl"


def test_a_goose_session_has_its_shell_call_and_result():
    a = analyze_path(REAL)
    assert a.stats["unknown_types"] == 0
    [command] = a.commands
    assert (command.command, command.result_seq is not None) == ("ps aux | grep worker", True)
    assert command.timestamp == "2025-05-13T23:18:54.000Z"


def test_a_failed_goose_call_is_a_failed_command(tmp_path):
    """``toolResult.status: "error"`` with its ``error`` text (goose's ``ToolResult`` Err side)."""
    lines = REAL.read_text(encoding="utf-8").splitlines()
    response = json.loads(lines[3])
    response["content"][0]["toolResult"] = {"status": "error", "error": "Command failed with exit code 127: foo: not found"}
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(response)]) + "\n", encoding="utf-8")
    [command] = analyze_path(path).commands
    assert command.is_error


def test_goose_stream_json_is_read_as_its_messages(tmp_path):
    """``goose run --output-format stream-json``: each message wrapped as ``{"type": "message",
    "message": {...}}`` (the shape two independent readers of Goose's stream test with). Before,
    it was a Claude Code session of five records of an unknown type."""
    records = [json.loads(line) for line in REAL.read_text(encoding="utf-8").splitlines()[1:]]
    path = tmp_path / "goose-run.jsonl"
    path.write_text("".join(json.dumps({"type": "message", "message": r}) + "\n" for r in records)
                    + json.dumps({"type": "complete", "total_tokens": 1250}) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert a.sessions[0]["format"] == "openai"
    assert [c.command for c in a.commands] == ["ps aux | grep worker"] and a.commands[0].result_seq is not None
