"""A Gemini CLI sub-agent's recording (``chats/<parentSessionId>/<agentId>.jsonl``, header
``kind: "subagent"``) is an agent of its parent's session, linked to the call that ran it
(the call record's ``agentId``), whether the folder, the ``chats/`` folder or the main session
file is named. Before, it was a session of its own and its commands belonged to no agent of the
session that asked for them. Shapes: google-gemini/gemini-cli
``packages/core/src/services/chatRecordingService.ts`` (``initialize``: sub-agents nested under
the parent session id, file ``<sessionId>.jsonl``), ``chatRecordingTypes.ts`` (``kind``,
``ToolCallRecord.agentId``), ``packages/core/src/agents/local-executor.ts`` (``promptId`` = the
agent id)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

MAIN = "5d2c1e6a-9b7f-4c3e-8a21-0f6e4d3b2a10"
SUB = "a7e3c9d1-4b2f-4e8a-9c61-2f0d8b7e5a34"
HASH = "3f1a9c0d4e2b7a8c6e5f1d0b9a8c7e6f5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a"


def _jsonl(path: Path, *records: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _call(call_id, name, args, output, **extra):
    return {"id": call_id, "name": name, "args": args, "status": "success", "timestamp": "2026-10-02T08:00:09.000Z",
            "result": [{"functionResponse": {"id": call_id, "name": name, "response": {"output": output}}}], **extra}


def _chats(root: Path) -> Path:
    chats = root / ".gemini" / "tmp" / HASH / "chats"
    _jsonl(chats / "session-2026-10-02T08-00-5d2c1e6a.jsonl",
           {"sessionId": MAIN, "projectHash": HASH, "startTime": "2026-10-02T08:00:00.000Z",
            "lastUpdated": "2026-10-02T08:03:00.000Z", "kind": "main"},
           {"id": "m1", "timestamp": "2026-10-02T08:00:00.000Z", "type": "user",
            "content": [{"text": "why does the sglang server on gpu01 crash with EAGLE3?"}]},
           {"id": "m2", "timestamp": "2026-10-02T08:00:05.000Z", "type": "gemini", "content": "",
            "toolCalls": [_call("codebase_investigator-1", "codebase_investigator", {"objective": "find the crash"},
                                "The draft model's hot_token_id is missing.", agentId=SUB)]},
           {"id": "m3", "timestamp": "2026-10-02T08:03:00.000Z", "type": "gemini",
            "content": "The investigator found the cause."})
    _jsonl(chats / MAIN / f"{SUB}.jsonl",
           {"sessionId": SUB, "projectHash": HASH, "startTime": "2026-10-02T08:00:06.000Z",
            "lastUpdated": "2026-10-02T08:02:00.000Z", "kind": "subagent", "directories": ["/work"]},
           {"id": "s1", "timestamp": "2026-10-02T08:00:06.000Z", "type": "user",
            "content": [{"text": "find the crash"}]},
           {"id": "s2", "timestamp": "2026-10-02T08:01:00.000Z", "type": "gemini", "content": "",
            "toolCalls": [_call("run_shell_command-7", "run_shell_command",
                                {"command": "ssh gpu01 'tail -n 20 /tmp/sglang.log'"},
                                "Command: ssh gpu01 'tail -n 20 /tmp/sglang.log'\nDirectory: (root)\n"
                                "Output: AttributeError: 'NoneType' object has no attribute 'hot_token_id'\n"
                                "Error: (none)\nExit Code: 0")]})
    return chats


@pytest.mark.parametrize("named", ["home", "chats", "main-file"])
def test_the_sub_agent_is_an_agent_of_the_session_that_ran_it(tmp_path, named):
    chats = _chats(tmp_path)
    path = {"home": tmp_path / ".gemini", "chats": chats,
            "main-file": chats / "session-2026-10-02T08-00-5d2c1e6a.jsonl"}[named]
    a = analyze_path(path)
    assert len(a.sessions) == 1 and a.sessions[0]["format"] == "gemini-cli"
    agents = {x["id"]: x for x in a.agents}
    assert set(agents) == {"main", SUB}
    sub = agents[SUB]
    assert (sub["parent"], sub["spawned_by"], sub["type"]) == ("main", "codebase_investigator-1", "codebase_investigator")
    assert sub["file"].endswith(f"{MAIN}/{SUB}.jsonl") and sub["tool_calls"] == 1
    [command] = a.commands
    assert (command.agent, command.host, command.exit_code) == (SUB, "gpu01", 0)
    assert command.seq > max(e.seq for e in a.prompts if e.agent == "main")


def test_a_sub_agent_recording_named_alone_is_read_alone(tmp_path):
    chats = _chats(tmp_path)
    a = analyze_path(chats / MAIN / f"{SUB}.jsonl")
    assert len(a.sessions) == 1 and [x["id"] for x in a.agents] == ["main"]
    assert len(a.commands) == 1


def test_a_header_without_kind_is_the_main_session_whatever_its_messages_say(tmp_path):
    """Recordings of releases before ``kind`` have a header without it; a call whose arguments
    hold ``"kind": "subagent"`` (a search for it) does not make the session a sub-agent."""
    chats = _chats(tmp_path)
    main = chats / "session-2026-10-02T08-00-5d2c1e6a.jsonl"
    lines = main.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    del header["kind"]
    search = {"id": "m0", "timestamp": "2026-10-02T08:00:00.500Z", "type": "gemini", "content": "",
              "toolCalls": [_call("search-1", "search_file_content", {"pattern": "kind", "kind": "subagent"}, "")]}
    main.write_text("\n".join([json.dumps(header), json.dumps(search), *lines[1:]]) + "\n", encoding="utf-8")
    a = analyze_path(chats)
    assert len(a.sessions) == 1 and {x["id"] for x in a.agents} == {"main", SUB}


def test_a_gemini_project_folder_reads_only_its_chats(tmp_path):
    """Beside chats/, a project's folder holds tool-outputs/session-<id>/ (the whole output of a
    call whose result was cut), logs/session-<id>.jsonl and logs.json: read before as sessions
    of their own (a tool output as a shell log)."""
    chats = _chats(tmp_path)
    project = chats.parent
    outputs = project / "tool-outputs" / f"session-{MAIN}"
    outputs.mkdir(parents=True)
    (outputs / "run_shell_command_1.txt").write_text("$ ssh gpu01 dmesg\nXid 79: GPU has fallen off the bus\n",
                                                    encoding="utf-8")
    (project / "logs").mkdir()
    (project / "logs" / f"session-{MAIN}.jsonl").write_text('{"level": "info", "msg": "started"}\n', encoding="utf-8")
    (project / "logs.json").write_text(json.dumps([{"sessionId": MAIN, "messageId": 0, "type": "user",
                                                    "message": "why", "timestamp": "2026-10-02T08:00:00.000Z"}]),
                                       encoding="utf-8")
    for path in (project, tmp_path / ".gemini"):
        a = analyze_path(path)
        assert len(a.sessions) == 1 and a.sessions[0]["format"] == "gemini-cli", path
        assert [c.command for c in a.commands] == ["ssh gpu01 'tail -n 20 /tmp/sglang.log'"]
