"""OpenCode's file storage (``~/.local/share/opencode/storage/``: ``session/<projectID>/<id>.json``,
``message/<sessionID>/<messageID>.json``, ``part/<messageID>/<partID>.json``; the bash tool's
``metadata: {output, exit, description}``, sst/opencode ``packages/opencode/src/tool/bash.ts``).
Before: each message file was a session of its own, with nothing in it, and no command at all
(the calls are in the part files)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "ses_6a1b2c3d4ffeR0aX9kQ2mW7pLt"
PROJECT = "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750"
LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --speculative-draft-model-path /m/draft"


def _write(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")  # OpenCode writes them indented


def _bash(n: int, message: str, command: str, exit_code: int | None, output: str, status: str = "completed") -> dict:
    return {"id": f"prt_{n:02d}", "sessionID": SESSION, "messageID": message, "type": "tool", "callID": f"toolu_{n}",
            "tool": "bash", "state": {"status": status, "input": {"command": command, "description": "Run it"},
                                      "output": output, "title": "Run it",
                                      "metadata": {"output": output, "exit": exit_code, "description": "Run it"},
                                      "time": {"start": 1767812644000 + n, "end": 1767812645000 + n}}}


def _storage(root: Path) -> Path:
    storage = root / "opencode" / "storage"
    _write(storage / "session" / PROJECT / f"{SESSION}.json",
           {"id": SESSION, "version": "0.15.8", "projectID": PROJECT, "directory": "/work/spec",
            "title": "eagle3 accept length", "time": {"created": 1767812640000, "updated": 1767812700000}})
    _write(storage / "project" / f"{PROJECT}.json", {"id": PROJECT, "worktree": "/work/spec", "time": {}})
    user, reply = "msg_b01", "msg_b02"
    _write(storage / "message" / SESSION / f"{user}.json",
           {"id": user, "sessionID": SESSION, "role": "user", "time": {"created": 1767812641000}})
    _write(storage / "part" / user / "prt_01.json",
           {"id": "prt_01", "sessionID": SESSION, "messageID": user, "type": "text",
            "text": "why is the accept length 1?"})
    _write(storage / "part" / user / "prt_02.json",
           {"id": "prt_02", "sessionID": SESSION, "messageID": user, "type": "text", "synthetic": True,
            "text": "Called the Read tool with the following input: {\"filePath\": \"/work/spec/run.sh\"}"})
    _write(storage / "message" / SESSION / f"{reply}.json",
           {"id": reply, "sessionID": SESSION, "role": "assistant", "modelID": "claude-sonnet-4-5",
            "providerID": "anthropic", "time": {"created": 1767812642000, "completed": 1767812650000}})
    parts = [
        {"id": "prt_03", "sessionID": SESSION, "messageID": reply, "type": "step-start"},
        {"id": "prt_04", "sessionID": SESSION, "messageID": reply, "type": "reasoning", "text": "Launch it first."},
        {"id": "prt_05", "sessionID": SESSION, "messageID": reply, "type": "text", "text": "Launching the server."},
        _bash(6, reply, LAUNCH, 1, "RuntimeError: draft hidden size 4096 != 5120\n"),
        _bash(7, reply, "nvidia-smi", 0, "GPU 0: NVIDIA H100\n"),
        _bash(8, reply, "sleep 600", None, "", status="error"),
        {"id": "prt_09", "sessionID": SESSION, "messageID": reply, "type": "step-finish", "cost": 0},
    ]
    parts[5]["state"]["error"] = "Command terminated after exceeding timeout 120000 ms"
    for part in parts:
        _write(storage / "part" / reply / f"{part['id']}.json", part)
    (storage / "part" / reply / "prt_10.json").write_text("{\"id\": \"prt_10\", \"type\": ", encoding="utf-8")
    return storage


def test_an_opencode_storage_gives_one_session_with_its_commands(tmp_path):
    storage = _storage(tmp_path)
    for path in (tmp_path / "opencode", storage, next((storage / "session" / PROJECT).iterdir())):
        doc = analyze_path(path).to_json()
        (session,) = doc["sessions"]
        assert (session["id"], session["format"]) == (SESSION, "opencode"), path
        assert session["broken_json"] == 1 and session["unknown_types"] == 0
        assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
            (LAUNCH, 1, True), ("nvidia-smi", 0, False), ("sleep 600", None, True)], path
        # the synthetic part is the CLI's note, not a prompt
        assert [p["text"] for p in doc["prompts"]] == ["why is the accept length 1?"]
        assert session["first_timestamp"] == "2026-01-07T19:04:00.000Z"
