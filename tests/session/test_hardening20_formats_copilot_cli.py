"""A GitHub Copilot CLI session (``~/.copilot/session-state/<sessionId>/events.jsonl``) is read as
Copilot's: its shell calls are commands paired with their results, the ``<exited with exit code
N>`` its shell tool ends with is their exit code, a ``session.error`` is an agent error, and a
sub-agent's events (``parentToolCallId``) are an agent spawned by that call. Before, it was read
as Claude Code: every event of an unknown type, no command at all.

Shapes: the events of jazzyalex/agent-sessions ``Resources/Fixtures/stage0/agents/copilot/
small.jsonl`` and ``subdir_v1/…/events.jsonl`` (commit 651e854f4dbfaaa1161ffc9015045921ed30cf12,
MIT, © 2026 Alexander Malakhov), trimmed there from real sessions; the exit-code line as a real
session's ``/share`` export quotes it (``…\\n<exited with exit code 1>``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

SESSION = "aaaabbbb-1111-2222-3333-ccccddddeeee"


def _ev(n: int, kind: str, data: dict) -> dict:
    return {"type": kind, "data": data, "id": f"e{n}", "timestamp": f"2026-03-26T17:50:{30 + n:02d}.000Z",
            "parentId": f"e{n - 1}" if n > 1 else None}


def _session(tmp_path: Path) -> Path:
    events = [
        _ev(1, "session.start", {"sessionId": SESSION, "version": 1, "producer": "copilot-agent",
                                 "copilotVersion": "1.0.11", "startTime": "2026-03-26T17:50:31.000Z",
                                 "context": {"cwd": "/tmp/project"}}),
        _ev(2, "user.message", {"content": "why does sglang on gpu01 report accept len 1.0?",
                                "transformedContent": "why does sglang on gpu01 report accept len 1.0?",
                                "attachments": [], "interactionId": "int-0001"}),
        _ev(3, "assistant.turn_start", {"turnId": "0", "interactionId": "int-0001"}),
        _ev(4, "assistant.message", {"messageId": "msg-0001", "content": "",
                                     "toolRequests": [{"toolCallId": "call_1", "name": "bash",
                                                       "arguments": {"command": "ssh gpu01 nvidia-smi",
                                                                     "description": "GPU state"},
                                                       "type": "function"}],
                                     "interactionId": "int-0001", "outputTokens": 12}),
        _ev(5, "tool.execution_start", {"toolCallId": "call_1", "toolName": "bash",
                                        "arguments": {"command": "ssh gpu01 nvidia-smi"}}),
        _ev(6, "tool.execution_complete", {"toolCallId": "call_1", "success": False,
                                           "result": {"content": "ssh: connect to host gpu01 port 22: Connection refused"
                                                                 "\n<exited with exit code 255>"}}),
        _ev(7, "subagent.started", {"toolCallId": "call_2", "agentName": "explore", "agentDisplayName": "Explore",
                                    "agentDescription": "Find the speculative config"}),
        _ev(8, "assistant.message", {"parentToolCallId": "call_2", "messageId": "msg-0002", "content": "",
                                     "toolRequests": [{"toolCallId": "call_3", "name": "bash",
                                                       "arguments": "{\"command\":\"grep -rn speculative configs/\"}",
                                                       "type": "function"}]}),
        _ev(9, "tool.execution_complete", {"parentToolCallId": "call_2", "toolCallId": "call_3", "success": True,
                                           "result": {"content": "configs/serve.yaml:4: speculative_num_steps: 3"
                                                                 "\n<exited with exit code 0>"}}),
        _ev(10, "subagent.completed", {"toolCallId": "call_2", "agentName": "explore", "totalToolCalls": 1}),
        _ev(11, "session.error", {"errorType": "query", "message": "Example model error", "statusCode": 400}),
        _ev(12, "assistant.turn_end", {"turnId": "0", "interactionId": "int-0001"}),
    ]
    folder = tmp_path / ".copilot" / "session-state" / SESSION
    folder.mkdir(parents=True)
    path = folder / "events.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def test_a_copilot_session_has_its_commands_exit_codes_agents_and_errors(tmp_path):
    a = analyze_path(_session(tmp_path))
    assert a.sessions[0]["format"] == "copilot" and a.sessions[0]["id"] == SESSION
    assert a.stats["unknown_types"] == 0
    assert [(c.agent, c.host, c.exit_code, c.command) for c in a.commands] == [
        ("main", "gpu01", 255, "ssh gpu01 nvidia-smi"),
        ("explore:call_2", None, 0, "grep -rn speculative configs/"),
    ]
    assert all(c.result_seq is not None for c in a.commands)
    sub = next(x for x in a.agents if x["id"] == "explore:call_2")
    assert (sub["parent"], sub["spawned_by"], sub["type"]) == ("main", "call_2", "explore")
    assert any(e.kind == "agent_error" and "model error" in e.message for e in a.errors)
    assert any(e.kind == "connection" for e in a.errors)


def test_the_session_state_folder_is_read_and_another_format_forced_is_refused(tmp_path):
    path = _session(tmp_path)
    a = analyze_path(tmp_path / ".copilot" / "session-state")
    assert [s["format"] for s in a.sessions] == ["copilot"] and len(a.commands) == 2
    with pytest.raises(UsageError) as err:
        analyze_path(path, input_format="claude-code")
    assert "Copilot" in str(err.value)


def test_the_copilot_home_reads_only_its_sessions(tmp_path):
    """~/.copilot also holds logs/ (the process's own logs, read as shell logs before) and its
    config: only session-state/ holds sessions."""
    _session(tmp_path)
    home = tmp_path / ".copilot"
    (home / "logs").mkdir()
    (home / "logs" / "process-1774543834000-1234.log").write_text(
        "2026-03-26T17:50:34.263Z [INFO] Starting Copilot CLI: 1.0.11\n$ ls\nfile1\n", encoding="utf-8")
    (home / "config.json").write_text('{"trusted_folders": ["/tmp/project"]}', encoding="utf-8")
    a = analyze_path(home)
    assert [s["id"] for s in a.sessions] == [SESSION]
