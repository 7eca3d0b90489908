"""An MCP tool call the person declined (or dismissed) at Codex's approval prompt never ran: Codex
answers it with an error result of ``user rejected MCP tool call`` / ``user cancelled MCP tool
call``, and an app tool the configuration disables with ``MCP tool call blocked by app
configuration`` (openai/codex ``codex-rs/core/src/mcp_tool_call.rs`` ``handle_mcp_tool_call``). The
rollout keeps the text alone as the ``function_call_output`` (``FunctionCallOutputPayload`` from a
``CallToolResult`` serializes only its content, ``codex-rs/protocol/src/models.rs``), and newer CLIs
the ``mcp_tool_call_end`` with ``{"Err": ...}``. The first read as a call that worked, the second as
a failed call. Now both are calls that never ran: ``rejected`` by the person, ``denied`` by the
configuration (as test_hardening18_codex_more_declined.py reads Codex's other refusals)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _rollout(path: Path, text: str, with_end: bool) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.120.0"}},
             {"timestamp": "2026-01-02T03:05:01.000Z", "type": "response_item",
              "payload": {"type": "function_call", "name": "mcp__ssh__exec", "call_id": "m1",
                          "arguments": json.dumps({"host": "gpu01", "command": "pkill -f sglang"})}}]
    if with_end:
        lines.append({"timestamp": "2026-01-02T03:05:02.000Z", "type": "event_msg",
                      "payload": {"type": "mcp_tool_call_end", "call_id": "m1",
                                  "invocation": {"server": "ssh", "tool": "exec", "arguments": {}},
                                  "duration": {"secs": 0, "nanos": 0}, "result": {"Err": text}}})
    lines.append({"timestamp": "2026-01-02T03:05:03.000Z", "type": "response_item",
                  "payload": {"type": "function_call_output", "call_id": "m1", "output": text}})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


@pytest.mark.parametrize("with_end", [False, True], ids=["model-copy-only", "mcp_tool_call_end"])
@pytest.mark.parametrize(("text", "kind"), [("user rejected MCP tool call", "rejected"),
                                            ("user cancelled MCP tool call", "rejected"),
                                            ("MCP tool call blocked by app configuration", "denied")])
def test_a_declined_mcp_call_never_ran(tmp_path: Path, text: str, kind: str, with_end: bool) -> None:
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", text, with_end))
    (main,) = a.agents
    assert main["failed_calls"] == 1  # model copy: was 0, a call that worked
    assert [(e.kind, e.message) for e in a.errors] == [(kind, text)]  # end event: was tool_error
