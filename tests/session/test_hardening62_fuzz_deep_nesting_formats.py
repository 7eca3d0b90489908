"""The format readers' own JSON (a sub-agent's .meta.json sidecar, a streamed tool input, an SSE
event) nested thousands of levels deep is read as broken JSON is, never a RecursionError.

The stdlib decoder recurses once per nesting level; these readers caught ValueError only, so a
damaged sidecar or stream stopped `spec-debug analyze` with a traceback.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.session.analysis import analyze_path

DEEP = "[" * 5000 + "]" * 5000
SHOWCASE = Path(__file__).parents[1] / "data" / "transcripts_newest"


def test_deep_sub_agent_sidecar_is_no_traceback(tmp_path):
    session = next(p for p in SHOWCASE.glob("*.jsonl") if (p.with_suffix("") / "subagents").is_dir()
                   and any((p.with_suffix("") / "subagents").glob("*.meta.json")))
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copy(session, folder / session.name)
    shutil.copytree(session.with_suffix(""), folder / session.stem)
    for sidecar in (folder / session.stem / "subagents").glob("*.meta.json"):
        sidecar.write_text(DEEP)  # a damaged sidecar: like one that is no JSON, it names nothing
    whole = analyze_path(session.parent / session.name)
    damaged = analyze_path(folder / session.name)
    assert whole.commands and [c.command for c in damaged.commands] == [c.command for c in whole.commands]
    result = CliRunner().invoke(app, ["analyze", str(folder / session.name), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def _sse(events: list[dict]) -> str:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


def _message(partial_json: str) -> list[dict]:
    return [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [],
                                              "model": "claude-sonnet-4-5", "usage": {"input_tokens": 1}}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {}}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": partial_json}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}},
        {"type": "message_stop"},
    ]


def test_deep_streamed_tool_input_keeps_the_call(tmp_path):
    path = tmp_path / "messages.txt"
    path.write_text(_sse(_message(DEEP)) + _sse(_message(json.dumps({"command": "nvidia-smi"}))))
    doc = analyze_path(path).to_json()
    assert doc["stats"]["tool_calls"] == 2  # the deep input's call is kept, its command not known
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]
