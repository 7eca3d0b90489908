"""Folder scans after the new readers (Gemini CLI project folders, Copilot CLI homes): a folder
that merely holds a ``chats/`` and a ``logs/`` folder of its own (an incident's bundle) is no
Gemini CLI project folder, so its other files and its logs are still read; and a home holding
a Claude Code project, a Copilot CLI session and a Gemini CLI chat reads each session in its
own format. Shapes: Claude Code ``~/.claude/projects/<cwd>/<sessionId>.jsonl``; Copilot CLI
``~/.copilot/session-state/<sessionId>/events.jsonl``; Gemini CLI ``~/.gemini/tmp/<hash>/chats/``
(google-gemini/gemini-cli ``packages/core/src/services/chatRecordingService.ts``)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CLAUDE = "c3d4e5f6-0000-4000-8000-00000000c001"
COPILOT = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
GEMINI = "5d2c1e6a-9b7f-4c3e-8a21-0f6e4d3b2a10"
HASH = "3f1a9c0d4e2b7a8c6e5f1d0b9a8c7e6f5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a"


def _jsonl(path: Path, *records: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _claude(path: Path, command: str) -> Path:
    env = {"sessionId": CLAUDE, "cwd": "/work", "version": "2.0.14", "gitBranch": "main"}
    return _jsonl(
        path,
        {**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z",
         "message": {"role": "user", "content": "check the GPU"}},
        {**env, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-10-02T08:00:01.000Z",
         "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                     "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": command}}],
                     "stop_reason": "tool_use"}},
        {**env, "type": "user", "uuid": "u3", "parentUuid": "u2", "timestamp": "2026-10-02T08:00:02.000Z",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
         "toolUseResult": {"stdout": "ok", "stderr": "", "interrupted": False}})


def _copilot(path: Path) -> Path:
    def ev(n, kind, data):
        return {"type": kind, "data": data, "id": f"e{n}", "timestamp": f"2026-10-02T09:00:0{n}.000Z",
                "parentId": f"e{n - 1}" if n > 1 else None}
    return _jsonl(
        path,
        ev(1, "session.start", {"sessionId": COPILOT, "version": 1, "producer": "copilot-agent",
                                "startTime": "2026-10-02T09:00:01.000Z", "context": {"cwd": "/work"}}),
        ev(2, "user.message", {"content": "restart the server"}),
        ev(3, "assistant.message", {"messageId": "m1", "content": "",
                                    "toolRequests": [{"toolCallId": "call_1", "name": "bash",
                                                      "arguments": {"command": "ssh gpu02 systemctl status sglang"}}]}),
        ev(4, "tool.execution_start", {"toolCallId": "call_1", "toolName": "bash",
                                       "arguments": {"command": "ssh gpu02 systemctl status sglang"}}),
        ev(5, "tool.execution_complete", {"toolCallId": "call_1", "success": True,
                                          "result": {"content": "active\n<exited with exit code 0>"}}))


def _gemini(path: Path) -> Path:
    return _jsonl(
        path,
        {"sessionId": GEMINI, "projectHash": HASH, "startTime": "2026-10-02T10:00:00.000Z",
         "lastUpdated": "2026-10-02T10:01:00.000Z", "kind": "main"},
        {"id": "g1", "timestamp": "2026-10-02T10:00:00.000Z", "type": "user", "content": [{"text": "logs?"}]},
        {"id": "g2", "timestamp": "2026-10-02T10:00:05.000Z", "type": "gemini", "content": "",
         "toolCalls": [{"id": "run_shell_command-1", "name": "run_shell_command", "status": "success",
                        "args": {"command": "ssh gpu03 dmesg"}, "timestamp": "2026-10-02T10:00:06.000Z",
                        "result": [{"functionResponse": {"id": "run_shell_command-1", "name": "run_shell_command",
                                                         "response": {"output": "Exit Code: 0"}}}]}]})


def test_a_bundle_with_chats_and_logs_folders_is_read_whole(tmp_path):
    """Before, a chats/ folder beside a logs/ folder made the bundle a Gemini CLI project folder:
    only chats/ was read, the Claude Code session beside it and the server log in logs/ lost."""
    bundle = tmp_path / "incident-42"
    _claude(bundle / f"{CLAUDE}.jsonl", "ssh gpu01 nvidia-smi")
    (bundle / "logs").mkdir(parents=True)
    (bundle / "logs" / "terminal.log").write_text("$ ssh gpu01 'tail -n 5 /tmp/sglang.log'\nINFO ready\n",
                                                 encoding="utf-8")
    (bundle / "chats").mkdir()
    (bundle / "chats" / "notes.md").write_text("# notes\n\nthe server restarts after the draft loads\n",
                                               encoding="utf-8")
    a = analyze_path(bundle)
    commands = {c.command for c in a.commands}
    assert {"ssh gpu01 nvidia-smi", "ssh gpu01 'tail -n 5 /tmp/sglang.log'"} <= commands, commands


def test_a_gemini_project_folder_still_skips_its_own_files(tmp_path):
    """logs.json marks a real project folder: its logs/, tool-outputs/ and logs.json are still
    no sessions, while a file put beside chats/ by hand is read."""
    project = tmp_path / ".gemini" / "tmp" / HASH
    _gemini(project / "chats" / "session-2026-10-02T10-00-5d2c1e6a.jsonl")
    (project / "logs.json").write_text(json.dumps([{"sessionId": GEMINI, "messageId": 0, "type": "user",
                                                    "message": "logs?", "timestamp": "2026-10-02T10:00:00.000Z"}]),
                                       encoding="utf-8")
    (project / "tool-outputs" / f"session-{GEMINI}").mkdir(parents=True)
    (project / "tool-outputs" / f"session-{GEMINI}" / "out.txt").write_text("$ rm -rf /tmp/x\n", encoding="utf-8")
    _jsonl(project / "logs" / f"session-{GEMINI}.jsonl", {"level": "info", "msg": "started"})
    _claude(project / f"{CLAUDE}.jsonl", "ssh gpu01 nvidia-smi")
    a = analyze_path(project)
    assert sorted(s["format"] for s in a.sessions) == ["claude-code", "gemini-cli"]
    assert {c.command for c in a.commands} == {"ssh gpu03 dmesg", "ssh gpu01 nvidia-smi"}


def test_a_home_of_three_agents_reads_each_session_in_its_format(tmp_path):
    """Copies of three agents' homes in one folder (a scan skips dot-folders, so they are copied
    under plain names, as a bundle holds them): each session in its own format."""
    home = tmp_path / "homes"
    _claude(home / "claude" / "projects" / "-work" / f"{CLAUDE}.jsonl", "ssh gpu01 nvidia-smi")
    (home / "claude" / "settings.json").write_text("{}", encoding="utf-8")
    _copilot(home / "copilot" / "session-state" / COPILOT / "events.jsonl")
    (home / "copilot" / "config.json").write_text("{}", encoding="utf-8")
    (home / "copilot" / "logs").mkdir()
    (home / "copilot" / "logs" / "process-1.log").write_text("$ npm start\n", encoding="utf-8")
    _gemini(home / "gemini" / "tmp" / HASH / "chats" / "session-2026-10-02T10-00-5d2c1e6a.jsonl")
    (home / "gemini" / "installation_id").write_text("x", encoding="utf-8")
    a = analyze_path(home)
    assert sorted((s["id"], s["format"]) for s in a.sessions) == sorted(
        [(CLAUDE, "claude-code"), (COPILOT, "copilot"), ("session-2026-10-02T10-00-5d2c1e6a", "gemini-cli")])
    assert {c.command for c in a.commands} == {"ssh gpu01 nvidia-smi", "ssh gpu02 systemctl status sglang",
                                               "ssh gpu03 dmesg"}


def test_a_copilot_session_folder_is_its_events_alone(tmp_path):
    """A Copilot CLI session folder also holds plan.md, checkpoints/<NNN>-<slug>.md, files/
    (pasted attachments) and rewind-snapshots/index.json. Before, each was a text session of
    its own, the shell blocks of the plan and a pasted file commands nobody ran."""
    folder = tmp_path / "copilot" / "session-state" / COPILOT
    _copilot(folder / "events.jsonl")
    (tmp_path / "copilot" / "config.json").write_text("{}", encoding="utf-8")
    (folder / "workspace.yaml").write_text(f"id: {COPILOT}\ncwd: /work\n", encoding="utf-8")
    (folder / "plan.md").write_text("# Plan\n\n1. Clear the cache:\n\n```bash\n$ ssh gpu02 rm -rf /tmp/cache\n```\n",
                                    encoding="utf-8")
    (folder / "checkpoints").mkdir()
    (folder / "checkpoints" / "001-restart.md").write_text("# Restart\n\n```\n$ pkill -f sglang\n```\n",
                                                           encoding="utf-8")
    (folder / "files").mkdir()
    (folder / "files" / "paste-1.txt").write_text("$ cat /etc/hosts\n127.0.0.1 localhost\n", encoding="utf-8")
    (folder / "rewind-snapshots").mkdir()
    (folder / "rewind-snapshots" / "index.json").write_text('{"snapshots": []}', encoding="utf-8")
    for path in (tmp_path / "copilot", folder):
        a = analyze_path(path)
        assert [(s["id"], s["format"]) for s in a.sessions] == [(COPILOT, "copilot")], path
        assert [c.command for c in a.commands] == ["ssh gpu02 systemctl status sglang"], path


def test_a_bundle_with_a_copied_session_state_and_logs_is_read_whole(tmp_path):
    """Before, session-state/ beside a logs/ folder made the bundle a Copilot CLI home: only
    session-state/ was read, the Claude Code session and the server log beside it lost."""
    bundle = tmp_path / "incident-43"
    _copilot(bundle / "session-state" / COPILOT / "events.jsonl")
    _claude(bundle / f"{CLAUDE}.jsonl", "ssh gpu01 nvidia-smi")
    (bundle / "logs").mkdir()
    (bundle / "logs" / "terminal.log").write_text("$ ssh gpu01 'tail -n 5 /tmp/sglang.log'\nINFO ready\n",
                                                 encoding="utf-8")
    a = analyze_path(bundle)
    assert sorted(s["format"] for s in a.sessions) == ["claude-code", "copilot", "text"]
    assert {c.command for c in a.commands} == {"ssh gpu01 nvidia-smi", "ssh gpu02 systemctl status sglang",
                                               "ssh gpu01 'tail -n 5 /tmp/sglang.log'"}
