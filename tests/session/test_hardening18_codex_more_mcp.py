"""An MCP tool in a recent Codex rollout is named with its server, as Claude Code names it.

Newer CLIs group each MCP server's tools under a Responses-API namespace and write the call as
``{"type": "function_call", "namespace": "mcp__todoist__", "name": "find-tasks-by-date", ...}``:
the namespace is ``qualified_mcp_tool_name_prefix(server)`` = ``mcp`` + ``__`` + server + ``__``
(openai/codex ``codex-rs/codex-mcp``; its test ``qualified_mcp_tool_name_prefix_sanitizes_server_
names_without_lowercasing`` gives ``mcp__Some_Server__``). The lines below are copied from public
tests of programs that replay those items (a Go agent's ``namespace: "mcp__todoist__"`` call; a
Responses-to-Chat proxy's ``namespace: "mcp__github"`` call, which drops the closing ``__``, and
its ``spawn_agent`` under Codex's own ``multi_agent_v1`` namespace).

Before, the tool read as ``find-tasks-by-date``: the server was lost, and the same tool had a
different name in a Claude Code session (``mcp__todoist__find-tasks-by-date``)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import ReadStats
from spec_debug.session.formats import codex, mcp_connector
from spec_debug.session.formats.common import Cursor

CALLS = [
    {"type": "function_call", "call_id": "call_todoist", "namespace": "mcp__todoist__", "name": "find-tasks-by-date",
     "arguments": "{\"startDate\":\"today\"}"},
    {"type": "function_call", "call_id": "call_get_me", "name": "get_me", "namespace": "mcp__github", "arguments": "{}"},
    {"type": "function_call", "call_id": "call_spawn", "name": "spawn_agent", "namespace": "multi_agent_v1",
     "arguments": "{}"},
    {"type": "function_call", "call_id": "call_exec", "name": "exec_command", "arguments": "{\"cmd\":\"nvidia-smi\"}"},
    # a rollout of before the namespaces: the whole qualified name is the name
    {"type": "function_call", "call_id": "call_old", "name": "mcp__context7__resolve-library-id",
     "arguments": "{\"libraryName\":\"sglang\"}"},
]


def _rollout(tmp_path: Path, calls: list[dict]) -> Path:
    lines = [{"timestamp": "2026-10-05T16:00:00.000Z", "type": "session_meta",
              "payload": {"id": "019a3c1e-5d2b-7c40-9a61-2f0e8b7d4c11", "cwd": "/home/ubuntu/eagle3",
                          "cli_version": "0.158.0"}}]
    lines += [{"timestamp": f"2026-10-05T16:00:{i + 1:02d}.000Z", "type": "response_item", "payload": call}
              for i, call in enumerate(calls)]
    path = tmp_path / "rollout-2026-10-05T16-00-00-019a3c1e-5d2b-7c40-9a61-2f0e8b7d4c11.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _calls(path: Path) -> list:
    events = codex.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats())
    return [e for e in events if e.kind == "tool_call"]


def test_an_mcp_tool_is_named_with_its_server(tmp_path: Path) -> None:
    names = [c.tool_name for c in _calls(_rollout(tmp_path, CALLS))]
    assert names == ["mcp__todoist__find-tasks-by-date",  # was find-tasks-by-date
                     "mcp__github__get_me",  # was get_me
                     "spawn_agent", "exec_command", "mcp__context7__resolve-library-id"]


def test_the_name_is_the_one_a_claude_code_session_gives_the_same_tool(tmp_path: Path) -> None:
    (call,) = _calls(_rollout(tmp_path, CALLS[:1]))
    claude = mcp_connector.as_tool_use({"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "find-tasks-by-date",
                                        "server_name": "todoist", "input": {"startDate": "today"}})
    assert call.tool_name == claude["name"]


def test_a_namespaced_spawn_agent_still_starts_a_sub_agent(tmp_path: Path) -> None:
    spawn = {**CALLS[2], "arguments": json.dumps({"message": "Review the draft model's config", "agent_type": "explorer"})}
    (call,) = _calls(_rollout(tmp_path, [spawn]))
    assert call.tool_name == "spawn_agent" and call.spawn is not None
    assert call.spawn.description == "Review the draft model's config"


def test_a_namespaced_ssh_tool_still_runs_its_command_on_its_host(tmp_path: Path) -> None:
    # an MCP SSH server's exec{host, command}, as in test_hardening18_codex_tool_ends.py
    ssh = {"type": "function_call", "call_id": "call_ssh", "namespace": "mcp__gpu_ssh__", "name": "exec",
           "arguments": json.dumps({"host": "gpu01", "command": "nvidia-smi -L"})}
    (call,) = _calls(_rollout(tmp_path, [ssh]))
    assert (call.tool_name, call.host, call.command) == ("mcp__gpu_ssh__exec", "gpu01", "nvidia-smi -L")
