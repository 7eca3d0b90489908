"""An OpenCode command configured to run as a sub-agent (``subtask: true``, or a command of a
subagent) writes the user's message as one ``subtask`` part, ``{prompt, description, agent,
command}``, and no text part; the loop then calls the task tool with that prompt (sst/opencode
``packages/opencode/src/session/message-v2.ts`` ``SubtaskPart``, ``session/prompt.ts``
``command`` and ``handleSubtask``). The part was read as bookkeeping, so a session started with
``/check-eagle`` had no prompt: no trigger in the postmortem, no words in a distilled
playbook's description."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "ses_7b2c3d4e5ffeSubtaskCmd0001"
PROJECT = "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750"
ASKED = "Check why the EAGLE-3 accept length on gpu-3 fell to 1.0 since the upgrade"


def _write(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")


def _storage(root: Path) -> Path:
    storage = root / "opencode" / "storage"
    _write(storage / "session" / PROJECT / f"{SESSION}.json",
           {"id": SESSION, "version": "1.0.20", "projectID": PROJECT, "directory": "/work/spec",
            "title": "check-eagle", "time": {"created": 1767812640000, "updated": 1767812700000}})
    _write(storage / "message" / SESSION / "msg_a01.json",
           {"id": "msg_a01", "sessionID": SESSION, "role": "user", "time": {"created": 1767812641000}})
    _write(storage / "part" / "msg_a01" / "prt_01.json",
           {"id": "prt_01", "sessionID": SESSION, "messageID": "msg_a01", "type": "subtask", "agent": "general",
            "description": "check the drafter", "command": "check-eagle", "prompt": ASKED})
    _write(storage / "message" / SESSION / "msg_a02.json",
           {"id": "msg_a02", "sessionID": SESSION, "role": "assistant", "mode": "general",
            "time": {"created": 1767812642000, "completed": 1767812650000}})
    _write(storage / "part" / "msg_a02" / "prt_02.json", {
        "id": "prt_02", "sessionID": SESSION, "messageID": "msg_a02", "type": "tool", "callID": "toolu_task",
        "tool": "task", "state": {"status": "completed",
                                  "input": {"description": "check the drafter", "prompt": ASKED,
                                            "subagent_type": "general"},
                                  "output": "accept length 1.0: the draft vocab map is missing",
                                  "time": {"start": 1767812642000, "end": 1767812650000}}})
    return storage


def test_a_subtask_command_is_the_users_prompt(tmp_path: Path) -> None:
    doc = analyze_path(_storage(tmp_path)).to_json()
    assert [(p["agent"], p["text"]) for p in doc["prompts"]] == [("main", ASKED)]
