"""A transcript line holding a value nested as deep as orjson reads (1,024 levels: more is a broken
line) is read whole, never a RecursionError.

orjson gave the value, but the readers' own walks over it (``str()`` of a text block, ``json.dumps``
of a tool input) recurse once a level against Python's default limit of 1,000: a line nested
~990-1,024 levels deep stopped `spec-debug analyze` with a traceback. Found by fuzzing the sample
transcripts (each field of a line set to a list nested to 1,024 levels in all).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.session import parallel
from spec_debug.session.analysis import analyze_path

SID = "c3d4e5f6-0000-4000-8000-00000000d002"
MAX_DEPTH = 1024  # orjson: 1,024 levels read, 1,025 refused


def _deep_at(record: dict, levels_above: int) -> str:
    """``record`` as one line with its "__DEEP__" string replaced by a list nested so that the
    whole line is ``MAX_DEPTH`` levels deep (the value sits ``levels_above`` containers down)."""
    n = MAX_DEPTH - levels_above
    line = json.dumps(record).replace('"__DEEP__"', "[" * n + "]" * n)
    orjson.loads(line)  # as deep as the reader takes, and no deeper
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(line.replace("[" * n, "[" * (n + 1)).replace("]" * n, "]" * (n + 1)))
    return line


def _claude_call(i: int, command: str) -> list[str]:
    call = {"type": "assistant", "sessionId": SID, "uuid": f"00000000-0000-4000-8000-{2 * i:012d}",
            "message": {"id": f"msg_{i}", "role": "assistant", "content": [
                {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": command}}]}}
    result = {"type": "user", "sessionId": SID, "uuid": f"00000000-0000-4000-8000-{2 * i + 1:012d}",
              "message": {"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": f"toolu_{i}", "is_error": False, "content": "ok"}]}}
    return [json.dumps(call), json.dumps(result)]


def _claude_deep_lines() -> list[str]:
    text_block = {"type": "assistant", "sessionId": SID, "uuid": "00000000-0000-4000-8000-000000000900",
                  "message": {"id": "msg_t", "role": "assistant", "content": [{"type": "text", "text": "__DEEP__"}]}}
    odd_block = {"type": "assistant", "sessionId": SID, "uuid": "00000000-0000-4000-8000-000000000901",
                 "message": {"id": "msg_o", "role": "assistant", "content": [{"type": "__DEEP__"}]}}
    summary = {"type": "summary", "summary": "__DEEP__", "leafUuid": "00000000-0000-4000-8000-000000000001"}
    # levels above the value: the line's object, message, content list, the block
    return [_deep_at(text_block, 4), _deep_at(odd_block, 4), _deep_at(summary, 1)]


def _claude_session(tmp_path: Path, calls: int = 3) -> Path:
    lines = [line for i in range(calls) for line in _claude_call(i, f"nvidia-smi -i {i}")]
    lines[2:2] = _claude_deep_lines()
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_claude_code_lines_at_orjsons_depth_are_read(tmp_path):
    analysis = analyze_path(_claude_session(tmp_path))
    assert analysis.format == "claude-code"
    assert analysis.stats["broken_json"] == 0 and analysis.stats["lines_skipped"] == 0
    assert [c.command for c in analysis.commands] == [f"nvidia-smi -i {i}" for i in range(3)]
    assert analysis.stats["events"] == 6 + 3  # the three deep lines are events too


def test_claude_code_in_worker_processes(tmp_path, monkeypatch):
    path = _claude_session(tmp_path, calls=40)
    whole = analyze_path(path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 4096)  # spans of a few lines: the deep ones a span of their own
    monkeypatch.setattr(parallel, "_start_method", lambda: "forkserver")  # a worker with the default limit
    assert parallel.use_workers(path)
    split = analyze_path(path)
    assert split.stats["broken_json"] == 0
    assert [c.command for c in split.commands] == [c.command for c in whole.commands]
    assert len(split.commands) == 40 and split.stats["events"] == whole.stats["events"]


def test_codex_rollout_meta_at_orjsons_depth_is_read(tmp_path):
    meta = {"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
            "payload": {"id": "11111111-1111-4111-8111-111111111111", "timestamp": "2026-01-02T03:04:05.000Z",
                        "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "__DEEP__"}}
    call = {"timestamp": "2026-01-02T03:04:06.000Z", "type": "response_item",
            "payload": {"type": "function_call", "name": "shell", "call_id": "c1",
                        "arguments": json.dumps({"command": ["bash", "-lc", "nvidia-smi"]})}}
    output = {"timestamp": "2026-01-02T03:04:07.000Z", "type": "response_item",
              "payload": {"type": "function_call_output", "call_id": "c1", "output": "GPU 0: H100"}}
    path = tmp_path / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
    path.write_text("\n".join([_deep_at(meta, 2), json.dumps(call), json.dumps(output)]) + "\n")
    analysis = analyze_path(path)
    assert analysis.format == "codex"
    assert analysis.stats["broken_json"] == 0
    assert [c.command for c in analysis.commands] == ["nvidia-smi"]


def test_openai_messages_at_orjsons_depth_are_read(tmp_path):
    deep_content = {"role": "user", "content": "__DEEP__"}
    deep_args = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_0", "type": "function", "function": {"name": "bash", "arguments": {"x": "__DEEP__"}}}]}
    rest = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": "nvidia-smi"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: H100"},
    ]
    # JSONL: levels above the value are the line's object (and tool_calls, the call, function, arguments)
    lines = [_deep_at(deep_content, 1), _deep_at(deep_args, 5), *map(json.dumps, rest)]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(lines) + "\n")
    analysis = analyze_path(path)
    assert analysis.format == "openai"
    assert analysis.stats["broken_json"] == 0
    assert [c.command for c in analysis.commands] == ["nvidia-smi"]
    assert analysis.stats["tool_calls"] == 2  # the deep call is kept, no command in it


def test_recursion_limit_is_back_after_the_analysis(tmp_path):
    before = sys.getrecursionlimit()
    analyze_path(_claude_session(tmp_path))
    assert sys.getrecursionlimit() == before


def test_cli_analyze_json_reads_every_line(tmp_path):
    result = CliRunner().invoke(app, ["analyze", str(_claude_session(tmp_path)), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "RecursionError" not in result.output and "Traceback" not in result.output
    assert "0 lines skipped" in result.output
