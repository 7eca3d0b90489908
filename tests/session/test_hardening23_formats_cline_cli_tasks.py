"""The Cline CLI keeps its tasks as the extension does, ``~/.cline/data/tasks/<taskId>/
api_conversation_history.json`` (its data folder ``CLINE_DATA_DIR``, ``~/.cline/data``; the path
public trajectory collectors read after ``cline -y``). A home scan passed the dot-folder by: no
task, no command. Its settings beside the tasks are still no session."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"


def _task(tasks: Path, task: str) -> None:
    folder = tasks / task
    folder.mkdir(parents=True)
    (folder / "api_conversation_history.json").write_text(json.dumps([
        {"role": "user", "content": [{"type": "text", "text": "<task>\nstart vllm on gpu-3\n</task>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": f"<execute_command>\n<command>{LAUNCH}</command>\n"
                                                                   "</execute_command>"}]},
        {"role": "user", "content": [{"type": "text", "text": f"[execute_command for '{LAUNCH}'] Result:"},
                                     {"type": "text", "text": "Command failed with exit code 1.\nOutput:\n"
                                                              "ValueError: draft vocab 32000 != target 151936"}]},
    ]), encoding="utf-8")
    (folder / "ui_messages.json").write_text("[]", encoding="utf-8")


def test_a_home_scan_finds_the_cline_cli_s_tasks(tmp_path):
    home = tmp_path / "home"
    data = home / ".cline" / "data"
    _task(data / "tasks", "1777073160794")
    (data / "settings").mkdir(parents=True)
    (data / "settings" / "cline_mcp_settings.json").write_text('{"mcpServers": {}}', encoding="utf-8")
    (data / "taskHistory.json").write_text(json.dumps([{"id": "1777073160794", "ts": 1777073160794,
                                                         "task": "start vllm on gpu-3"}]), encoding="utf-8")
    doc = analyze_path(home).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["1777073160794"]
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, 1, True)]
