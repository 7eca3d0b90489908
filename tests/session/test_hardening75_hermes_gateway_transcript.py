"""Hermes Agent's gateway (Telegram, Slack, ...) keeps each session's transcript as
``~/.hermes/sessions/<session_id>.jsonl``: a first line ``{"role": "session_meta", "tools": [...],
"model", "platform", "timestamp"}`` holding every tool spec sent to the model (often hundreds of
KB), then the chat messages (NousResearch/hermes-agent ``gateway/run.py``, ``append_to_transcript``).

Before: with a tool list past the 256 KiB the format is told from, the file was read as a text log:
the launch and its CUDA OOM were no command and no error; with a short one the first line was
counted as an unknown record. Now the transcript is read as the chat messages it holds, its first
line a system note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"


def _tool(i: int) -> dict:
    return {"type": "function", "function": {"name": f"tool_{i}", "description": "Run things. " * 40,
                                             "parameters": {"type": "object", "properties": {
                                                 "command": {"type": "string", "description": "The command. " * 25}}}}}


@pytest.mark.parametrize("tools", [400, 2], ids=["past-the-sniff-window", "short"])
def test_a_gateway_transcript_is_read_as_chat_messages(tmp_path: Path, tools: int) -> None:
    lines = [{"role": "session_meta", "tools": [_tool(i) for i in range(tools)], "model": "hermes-4",
              "platform": "telegram", "timestamp": "2026-11-02T08:00:00.123456"},
             {"role": "user", "content": "start the EAGLE-3 server", "timestamp": "2026-11-02T08:00:01.000000"},
             {"role": "assistant", "content": "", "tool_calls": [{"id": "c0", "type": "function", "function": {
                 "name": "terminal", "arguments": json.dumps({"command": LAUNCH})}}],
              "timestamp": "2026-11-02T08:00:02.000000"},
             {"role": "tool", "tool_call_id": "c0", "timestamp": "2026-11-02T08:00:03.000000", "content": json.dumps(
                 {"output": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "exit_code": 1,
                  "error": None})}]
    path = tmp_path / "20261102_080000_9f8e7d6c.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert (len(path.read_text().splitlines()[0]) > 256 * 1024) == (tools == 400)
    a = analyze_path(path)
    assert a.format == "openai"
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
    assert [e.kind for e in a.errors] == ["cuda_oom"]
    assert a.sessions[0]["unknown_types"] == 0
