"""``spec-debug analyze ~`` where the home folder itself holds ``CLAUDE.md`` (what Claude Code's
``/init`` writes into the folder it ran in) and a ``projects/`` folder of code beside ``.claude/``:
the home was taken for Claude Code's own home (``projects/`` beside a Claude file), the scan read
``~/projects/`` alone, and ``~/.claude/projects/`` was never entered: "no transcript files found".
A settings file beside ``projects/`` did the same for any folder. Now those shared file names tell
a Claude home only in a folder named for Claude (``.claude-backup``, ``.claude-work``), and a
folder holding ``.claude/`` is never one itself. Shapes: Claude Code's lines under
``projects/<cwd slug>/<session id>.jsonl`` (TRANSCRIPTS.md section 1a)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "c3d4e5f6-0000-4000-8000-00000000f591"


def _session(path: Path) -> None:
    env = {"sessionId": SID, "cwd": "/home/mei", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    rows = [{**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z",
             "message": {"role": "user", "content": "check the GPU"}},
            {**env, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-10-02T08:00:01.000Z",
             "message": {"role": "assistant", "content": [
                 {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}}]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


@pytest.mark.parametrize("shared_file", ["CLAUDE.md", "settings.json"])
def test_a_home_with_projects_and_a_claude_file_is_not_claudes_home(tmp_path: Path, shared_file: str) -> None:
    home = tmp_path / "mei"
    _session(home / ".claude" / "projects" / "-home-mei" / f"{SID}.jsonl")
    (home / ".claude" / "settings.json").write_text("{}")
    (home / "projects" / "eagle3").mkdir(parents=True)
    (home / "projects" / "eagle3" / "train.py").write_text("print('hi')\n")
    (home / shared_file).write_text("{}\n" if shared_file.endswith(".json") else "Use uv for Python.\n")
    doc = analyze_path(home).to_json()  # was: UsageError, no transcript files found
    assert SID in [s["id"] for s in doc["sessions"]]


def test_a_renamed_claude_home_with_settings_is_still_one(tmp_path: Path) -> None:
    home = tmp_path / "mei"
    _session(home / ".claude-backup" / "projects" / "-home-mei" / f"{SID}.jsonl")
    (home / ".claude-backup" / "settings.json").write_text("{}")
    (home / ".claude-backup" / "CLAUDE.md").write_text("$ rm -rf /tmp/x\n")  # no session: passed by
    doc = analyze_path(home).to_json()
    assert [s["id"] for s in doc["sessions"]] == [SID]
