"""Calls the Anthropic API's MCP connector made for the model are tool calls.

With the connector (``mcp_servers`` in the request), the assistant's ``content`` holds
``{"type": "mcp_tool_use", "id", "name", "server_name", "input"}`` and the server's answer
``{"type": "mcp_tool_result", "tool_use_id", "is_error", "content": [{"type": "text", ...}]}``
(anthropics/anthropic-sdk-php ``src/Models/Beta/BetaMCPToolUseBlock.php``, the Python SDK's
``beta_request_mcp_tool_result_block_param.py``); Claude Code writes the message's blocks into
its JSONL as they came. Both were kept as ``other``: an SSH server's ``exec`` that ran
``nvidia-smi`` on gpu01 was no command, its failure no error, gpu01 no host of the session."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

SID = "5e2f0c1d-7f80-4a91-b2c3-d4e5f6a7b8c9"
SMI = "nvidia-smi --query-gpu=memory.used,memory.total --format=csv"
OOM = ("Traceback (most recent call last):\n  File \"/opt/sglang/python/sglang/srt/model_executor/model_runner.py\", "
       "line 1024, in init_memory_pool\n    raise RuntimeError(\ntorch.OutOfMemoryError: CUDA out of memory. "
       "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.02 GiB is free.")


def _session(tmp_path: Path) -> Path:
    def line(n: int, kind: str, message: dict) -> dict:
        return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
                "timestamp": f"2026-03-02T09:{n:02d}:00Z", "cwd": "/work", "isSidechain": False,
                "userType": "external", "version": "2.1.40", "message": message}

    lines = [
        line(0, "user", {"role": "user", "content": "The EAGLE-3 server on gpu01 dies at start; find out why"}),
        line(1, "assistant", {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [
            {"type": "text", "text": "I'll check GPU memory on gpu01 and the server log."},
            {"type": "mcp_tool_use", "id": "mcptoolu_01Smi", "name": "exec", "server_name": "gpu-ssh",
             "input": {"host": "ubuntu@gpu01", "command": SMI}},
            {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_01Smi", "is_error": False,
             "content": [{"type": "text", "text": "memory.used [MiB], memory.total [MiB]\n78120 MiB, 81559 MiB"}]},
            {"type": "mcp_tool_use", "id": "mcptoolu_02Log", "name": "run_command", "server_name": "gpu-ssh",
             "input": {"host": "gpu01", "command": "tail -n 5 /var/log/sglang/server.log"}},
            {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_02Log", "is_error": True,
             "content": [{"type": "text", "text": OOM}]},
            {"type": "mcp_tool_use", "id": "mcptoolu_03Dash", "name": "query_prometheus", "server_name": "grafana",
             "input": {"expr": "DCGM_FI_DEV_FB_USED{Hostname=\"gpu01\"}"}},
            {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_03Dash", "is_error": False, "content": "78120"},
        ]}),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def test_connector_blocks_are_calls_and_results_with_server_and_tool(tmp_path: Path) -> None:
    path = _session(tmp_path)
    stats = ReadStats()
    events = list(claude_code.read(path, Cursor(session=SID, agent="main", file=str(path)), stats))
    calls = [(e.tool_name, e.command, e.host) for e in events if e.kind == "tool_call"]
    assert calls == [("mcp__gpu-ssh__exec", SMI, "gpu01"),
                     ("mcp__gpu-ssh__run_command", "tail -n 5 /var/log/sglang/server.log", "gpu01"),
                     ("mcp__grafana__query_prometheus", None, None)]
    results = [(e.call_id, e.is_error) for e in events if e.kind == "tool_result"]
    assert results == [("mcptoolu_01Smi", False), ("mcptoolu_02Log", True), ("mcptoolu_03Dash", False)]
    assert [e for e in events if e.kind == "other"] == [] and stats.unknown_types == 0


def test_the_ssh_servers_commands_are_the_sessions_commands_on_gpu01(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path))
    assert [(c.command, c.host, c.is_error) for c in a.commands] == [
        (SMI, "gpu01", False), ("tail -n 5 /var/log/sglang/server.log", "gpu01", True)]
    assert a.hosts == ["gpu01"]
    assert [(e.kind, e.host, e.command_seq) for e in a.errors] == [("cuda_oom", "gpu01", 1)]
    assert a.agents[0]["tool_calls"] == 3
