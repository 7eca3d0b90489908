"""``spec-debug analyze <folder>`` on a copy of the CLIs' transcript folders alone (``tar czf
sessions.tgz ~/.claude/projects ~/.codex/sessions``, leaving settings and credentials out): the
Codex home was told by its name (``sources.py`` ``_SESSIONS_HOMES``), Claude Code's only by the
settings, todos or statsig beside ``projects/``, so ``.claude/`` was passed by as a project's own
dot-folder and every Claude session in the copy silently dropped. Now ``.claude`` holding
``projects/`` is Claude Code's home by its name as well; a project's own ``.claude/`` (commands,
agents, settings; no ``projects/``, TRANSCRIPTS.md section 1a) is still passed by."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CLAUDE = "c3d4e5f6-0000-4000-8000-00000000e571"
CODEX = "rollout-2026-10-02T08-00-00-0199a1b2-0000-7000-8000-00000000e572"


def _jsonl(path: Path, *records: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _copied_transcripts(root: Path) -> Path:
    """What ``tar`` of ``~/.claude/projects`` and ``~/.codex/sessions`` unpacks: the two homes
    with their transcript folders and nothing else."""
    home = root / "bundle"
    env = {"sessionId": CLAUDE, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    _jsonl(home / ".claude" / "projects" / "-work" / f"{CLAUDE}.jsonl",
           {**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z",
            "message": {"role": "user", "content": "check the GPU"}},
           {**env, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-10-02T08:00:01.000Z",
            "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}},
           {**env, "type": "user", "uuid": "u3", "parentUuid": "u2", "timestamp": "2026-10-02T08:00:02.000Z",
            "toolUseResult": "Error: Exit code 9\nNVIDIA-SMI has failed",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                     "content": "Exit code 9\nNVIDIA-SMI has failed",
                                                     "is_error": True}]}})
    _jsonl(home / ".codex" / "sessions" / "2026" / "10" / "02" / f"{CODEX}.jsonl",
           {"timestamp": "2026-10-02T08:00:00.000Z", "type": "session_meta",
            "payload": {"id": "0199a1b2-0000-7000-8000-00000000e572", "cwd": "/work", "originator": "codex_cli_rs"}},
           {"timestamp": "2026-10-02T08:00:01.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}})
    return home


def test_a_copy_of_the_transcript_folders_alone_gives_both_clis_sessions(tmp_path):
    doc = analyze_path(_copied_transcripts(tmp_path)).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == sorted([CLAUDE, CODEX])
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]


def test_a_project_claude_folder_without_projects_is_still_passed_by(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".claude" / "commands").mkdir(parents=True)
    (repo / ".claude" / "commands" / "gpu.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n")
    (repo / ".claude" / "settings.json").write_text('{"permissions": {}}', encoding="utf-8")
    (repo / "notes.md").write_text("# notes\n$ nvidia-smi\n")
    doc = analyze_path(repo).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["notes"]
