"""A Claude Code project folder of 2025 holds, beside its sessions, files of nothing but
``{"type": "summary", "summary", "leafUuid"}`` lines: the titles the CLI wrote for conversation
branches, each ``leafUuid`` naming a message of another session file (microsoft/amplifier
``ai_working/claude_code_logging/summary_files_analysis.md``; anthropics/claude-code issue #2597).
A folder or home scan reported each as a session of its own ("claude-code, 2 events", an agent
with no talk) beside the real ones. Now such a file is passed by in a scan; named on its own it is
still read, and a session that starts with summary lines is read as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "c3d4e5f6-0000-4000-8000-00000000f593"
INDEX = "7e7e0000-0000-4000-8000-00000000f594"


def _rows(*rows: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _summary(text: str, leaf: str) -> dict:
    return {"type": "summary", "summary": text, "leafUuid": leaf}


def _project(root: Path) -> Path:
    project = root / ".claude" / "projects" / "-work"
    project.mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text("{}")
    env = {"sessionId": SID, "cwd": "/work", "version": "1.0.43", "isSidechain": False, "userType": "external"}
    (project / f"{SID}.jsonl").write_text(_rows(
        _summary("EAGLE-3 acceptance debugging", "u2"),
        {**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2025-07-02T08:00:00.000Z",
         "message": {"role": "user", "content": "why is accept len 1.0"}},
        {**env, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2025-07-02T08:00:01.000Z",
         "message": {"id": "m1", "role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}}))
    (project / f"{INDEX}.jsonl").write_text(_rows(_summary("Fix draft config", "9a9a0000-0000-4000-8000-000000000001"),
                                                  _summary("GPU check", "9a9a0000-0000-4000-8000-000000000002")))
    return root


def test_a_file_of_summary_lines_alone_is_no_session_in_a_scan(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path / "home")).to_json()
    assert [s["id"] for s in doc["sessions"]] == [SID]  # was the index file as well
    assert [a["session"] for a in doc["agents"]] == [SID]


def test_named_on_its_own_it_is_still_read(tmp_path: Path) -> None:
    home = _project(tmp_path / "home")
    doc = analyze_path(home / ".claude" / "projects" / "-work" / f"{INDEX}.jsonl").to_json()
    assert [s["id"] for s in doc["sessions"]] == [INDEX]
