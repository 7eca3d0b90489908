"""A transcript line (or a JSON string inside one) nested thousands of levels deep is a broken
line, counted, and the rest of the session is still read: never a RecursionError traceback.

orjson refuses JSON nested past 1,024 levels and the stdlib's decoder recurses once per level,
so such a line reached ``json.loads``/``raw_decode`` and raised RecursionError, which nothing
caught: ``spec-debug analyze`` stopped with a traceback. Found by fuzzing the sample transcripts
(a line of 5,000 ``[`` inserted; a tool call's ``arguments`` string set to one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.session.analysis import analyze_path

DEEP = "[" * 5000 + "]" * 5000
SID = "c3d4e5f6-0000-4000-8000-00000000d001"


def _claude(i: int, command: str, sid: str = SID) -> list[str]:
    """Call i running ``command`` and its result, as two Claude Code lines of session ``sid``."""
    call = {"type": "assistant", "session_id": sid, "uuid": f"00000000-0000-4000-8000-{2 * i:012d}",
            "message": {"id": f"msg_{i}", "role": "assistant", "content": [
                {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": command}}]}}
    result = {"type": "user", "session_id": sid, "uuid": f"00000000-0000-4000-8000-{2 * i + 1:012d}",
              "message": {"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": f"toolu_{i}", "is_error": False, "content": "ok"}]}}
    return [json.dumps(call), json.dumps(result)]


def _session(tmp_path: Path, deep_at: int, calls: int = 3) -> Path:
    lines = [line for i in range(calls) for line in _claude(i, f"nvidia-smi -i {i}")]
    lines.insert(deep_at, '{"type":"user","message":' + DEEP + "}")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("deep_at", [0, 3], ids=["first-line", "mid-head"])
def test_deep_line_in_the_sniffed_head_is_one_broken_line(tmp_path, deep_at):
    analysis = analyze_path(_session(tmp_path, deep_at))
    assert analysis.format == "claude-code"
    assert analysis.stats["broken_json"] == 1
    assert [c.command for c in analysis.commands] == [f"nvidia-smi -i {i}" for i in range(3)]


def test_deep_line_past_the_sniffed_head_is_one_broken_line(tmp_path):
    # 60 calls: 120 lines, the deep one at 110, past the 50 lines the format sniff reads
    analysis = analyze_path(_session(tmp_path, 110, calls=60))
    assert analysis.stats["broken_json"] == 1
    assert len(analysis.commands) == 60
    assert analysis.commands[-1].command == "nvidia-smi -i 59"


def test_cli_analyze_json_has_no_traceback(tmp_path):
    path = _session(tmp_path, 0)
    result = CliRunner().invoke(app, ["analyze", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    assert "broken JSON 1" in result.output


def test_chat_array_with_a_deep_element_keeps_the_elements_after_it(tmp_path):
    messages = [
        {"role": "user", "content": "why is the EAGLE-3 server slow?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": "nvidia-smi"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: H100"},
    ]
    after = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_2", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": "ls /models"})}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "eagle3"},
    ]
    text = "[\n" + ",\n".join([*map(json.dumps, messages), DEEP, *map(json.dumps, after)]) + "\n]\n"
    path = tmp_path / "chat.json"
    path.write_text(text)
    analysis = analyze_path(path)
    assert analysis.format == "openai"
    assert analysis.stats["broken_json"] == 1
    assert [c.command for c in analysis.commands] == ["nvidia-smi", "ls /models"]


def test_deep_tool_arguments_string_is_no_command_and_no_traceback(tmp_path):
    meta = {"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
            "payload": {"id": "11111111-1111-4111-8111-111111111111", "timestamp": "2026-01-02T03:04:05.000Z",
                        "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.0.0-test"}}

    def call(n: int, arguments: str) -> list[dict]:
        return [
            {"timestamp": f"2026-01-02T03:04:0{n}.000Z", "type": "response_item",
             "payload": {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": f"c{n}"}},
            {"timestamp": f"2026-01-02T03:04:0{n}.500Z", "type": "response_item",
             "payload": {"type": "function_call_output", "call_id": f"c{n}", "output": '{"output":' + DEEP}},
        ]

    records = [meta, *call(6, DEEP), *call(7, json.dumps({"command": ["bash", "-lc", "nvidia-smi"]}))]
    path = tmp_path / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
    path.write_text("\n".join(map(json.dumps, records)) + "\n")
    analysis = analyze_path(path)
    assert analysis.format == "codex"
    assert analysis.stats["broken_json"] == 0  # the records are whole; only a string in them is deep
    assert [c.command for c in analysis.commands][-1] == "nvidia-smi"


GEMINI_SAMPLE = Path(__file__).parents[1] / "data" / "transcripts_hardening19" / "session-2026-10-02T08-00-5d2c1e6a.json"


def test_gemini_session_with_a_deep_record_line_is_no_traceback(tmp_path):
    lines = GEMINI_SAMPLE.read_text().splitlines()
    lines.insert(46, '{"type":"user","message":' + DEEP + "}")  # a damaged session: one line nested too deep
    path = tmp_path / GEMINI_SAMPLE.name
    path.write_text("\n".join(lines) + "\n")
    analysis = analyze_path(path)  # raised RecursionError in gemini_stream.is_stream
    assert analysis.format == "gemini-cli"
    assert analysis.stats["sessions"] == 1
