"""`claude -p --verbose --output-format stream-json` names the working folder once, on its
``init`` line (``cwd``, the Agent SDK's SDKSystemMessage, @anthropic-ai/claude-agent-sdk
``sdk.d.ts``); its messages carry none, as a session file's lines do. Every command had cwd None,
so `distill` made `python3 checks/accept_len.py` a bare step that fails anywhere but that folder.
Commands now run in the init folder until the agent moves the Bash tool's shell with `cd`; after
that the folder is unknown (None), not guessed."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

SID = "8c3e4d5f-6071-4b8c-9dae-1f2a3b4c5d6e"


def _call(n: int, command: str) -> dict:
    return {"type": "assistant", "message": {"id": f"msg_{n}", "type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": command}}]},
        "parent_tool_use_id": None, "session_id": SID, "uuid": f"a{n}"}


def _result(n: int, output: str, failed: bool = False) -> dict:
    return {"type": "user", "message": {"role": "user", "content": [
        {"tool_use_id": f"toolu_{n}", "type": "tool_result", "content": output, "is_error": failed}]},
        "parent_tool_use_id": None, "session_id": SID, "uuid": f"u{n}"}


def test_stream_json_commands_run_in_the_init_folder_until_a_cd(tmp_path: Path) -> None:
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "model": "claude-sonnet-4-5", "permissionMode": "bypassPermissions", "uuid": "i0"},
        _call(1, "python3 checks/accept_len.py"), _result(1, "RuntimeError: accept len 1.02 < 2.5", True),
        _call(2, "tail -n 20 logs/sglang.log"), _result(2, "Decode batch. accept len: 1.02"),
        _call(3, "cd /opt/sglang && git log -1 --oneline"), _result(3, "abc1234 eagle3: fix draft vocab"),
        _call(4, "grep -n accept python/sglang/srt/speculative/eagle_worker.py"), _result(4, "12: accept"),
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 9000, "num_turns": 5,
         "result": "The draft accepts almost nothing.", "session_id": SID, "uuid": "r0"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    analysis = analyze_path(path)
    assert [c.cwd for c in analysis.commands] == ["/root/work", "/root/work", "/root/work", None]
    runs = [s["run"] for s in distill_playbook(analysis)["steps"]]
    assert "cd {{ workdir }} && python3 checks/accept_len.py" in runs, runs
