"""An MCP tool call whose arguments are no JSON (a model that cut its arguments short) is answered
before it runs with ``format!("err: {e}")`` around serde_json's error (openai/codex ``codex-rs/core/
src/mcp_tool_call.rs`` ``handle_mcp_tool_call``, every release): ``success: false`` is not kept in the
rollout and no ``mcp_tool_call_end`` is written, so the ``function_call_output`` is all there is.
Newer CLIs write an MCP result as its serialized content blocks (``[{"type":"text","text":...}]``).
Both read as a call that came back fine; now they are a failed call. A result that merely starts
with ``err: `` but is no such error stays a result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

BAD_ARGS = '{"host": "gpu01", "command": "nvidia-smi"'
ERROR = "err: EOF while parsing an object at line 1 column 41"


def _rollout(path: Path, output: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.46.0"}}]
    items = [{"type": "function_call", "name": "mcp__ssh__run", "call_id": "c1", "arguments": BAD_ARGS},
             {"type": "function_call_output", "call_id": "c1", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


@pytest.mark.parametrize("output", [ERROR, json.dumps([{"type": "text", "text": ERROR}], separators=(",", ":"))])
def test_mcp_arguments_that_did_not_parse_are_a_failed_call(tmp_path: Path, output: str) -> None:
    analysis = analyze_path(_rollout(tmp_path / "rollout.jsonl", output))
    (main,) = analysis.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 1)  # was (1, 0)
    assert [e["message"] for e in analysis.to_json()["errors"]] == [ERROR]


def test_a_result_that_starts_with_err_is_still_a_result(tmp_path: Path) -> None:
    analysis = analyze_path(_rollout(tmp_path / "rollout.jsonl", "err: 0 of 8 GPUs busy"))
    (main,) = analysis.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 0)
