"""Cline over VS Code Remote-SSH (review of 5c0e2b2): on a GPU host the extension runs in the editor's
server and keeps its tasks in ``~/.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks``
(where public guides put Cline's settings on a remote host), not in ``~/.config``; a home scan of the
host passed the dot-folder by and found no task. VS Code built from source keeps them in
``~/.config/Code - OSS``. The rest of those folders (the server's extensions, logs) is still no session."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"


def _task(user: Path, extension: str, task: str) -> None:
    folder = user / "globalStorage" / extension / "tasks" / task
    folder.mkdir(parents=True)
    (folder / "api_conversation_history.json").write_text(json.dumps([
        {"role": "user", "content": [{"type": "text", "text": "<task>\nstart vllm on gpu-3\n</task>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": f"<execute_command>\n<command>{LAUNCH}</command>\n"
                                                                   "</execute_command>"}]},
    ]), encoding="utf-8")


def test_a_home_scan_finds_the_tasks_of_a_remote_server_and_of_code_oss(tmp_path):
    home = tmp_path / "home"
    _task(home / ".vscode-server" / "data" / "User", "saoudrizwan.claude-dev", "1777073160794")
    _task(home / ".config" / "Code - OSS" / "User", "rooveterinaryinc.roo-cline", "5f0c6c1e-0000-4000-8000-000000000001")
    logs = home / ".vscode-server" / "data" / "logs"
    logs.mkdir(parents=True)
    (logs / "remoteagent.log").write_text("$ ssh gpu-9 reboot\n", encoding="utf-8")
    doc = analyze_path(home).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["1777073160794", "5f0c6c1e-0000-4000-8000-000000000001"]
    assert [c["command"] for c in doc["commands"]] == [LAUNCH, LAUNCH]
