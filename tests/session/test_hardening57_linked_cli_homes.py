"""``spec-debug analyze ~`` where a CLI's home, or its transcript folder, is a symlink: dotfile
managers link ``~/.claude`` into a dotfiles checkout, and a full disk moves ``~/.claude/projects``
(or ``~/.codex/sessions``) elsewhere behind a link. The folder scan walks without following links
(a link loop must not be walked: test_hardening6_readers), so it never entered them and said "no
transcript files found". Now a linked CLI home, or a linked transcript folder of one, is read
where it points; other linked folders (a dataset linked into the home) are still not entered."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CLAUDE = "c3d4e5f6-0000-4000-8000-00000000e5a1"
CODEX = "rollout-2026-10-02T08-00-00-0199a1b2-0000-7000-8000-00000000e5a2"


def _jsonl(path: Path, *records: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _claude_projects(projects: Path) -> None:
    env = {"sessionId": CLAUDE, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    _jsonl(projects / "-work" / f"{CLAUDE}.jsonl",
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


def _codex_sessions(sessions: Path) -> None:
    _jsonl(sessions / "2026" / "10" / "02" / f"{CODEX}.jsonl",
           {"timestamp": "2026-10-02T08:00:00.000Z", "type": "session_meta",
            "payload": {"id": "0199a1b2-0000-7000-8000-00000000e5a2", "cwd": "/work", "originator": "codex_cli_rs"}},
           {"timestamp": "2026-10-02T08:00:01.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}})


def test_a_linked_claude_home_is_read(tmp_path):
    dotfiles = tmp_path / "dotfiles" / "claude"
    _claude_projects(dotfiles / "projects")
    (dotfiles / "settings.json").write_text('{"model": "opus"}', encoding="utf-8")
    home = tmp_path / "mei"
    home.mkdir()
    (home / ".claude").symlink_to(dotfiles, target_is_directory=True)
    doc = analyze_path(home).to_json()
    assert [s["id"] for s in doc["sessions"]] == [CLAUDE]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]


def test_linked_transcript_folders_of_real_homes_are_read(tmp_path):
    disk = tmp_path / "disk"
    _claude_projects(disk / "claude-projects")
    _codex_sessions(disk / "codex-sessions")
    home = tmp_path / "mei"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text("{}", encoding="utf-8")
    (home / ".claude" / "projects").symlink_to(disk / "claude-projects", target_is_directory=True)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text('model = "gpt-5.1-codex"\n', encoding="utf-8")
    (home / ".codex" / "sessions").symlink_to(disk / "codex-sessions", target_is_directory=True)
    doc = analyze_path(home).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == sorted([CLAUDE, CODEX])


def test_other_linked_folders_are_still_not_entered(tmp_path):
    data = tmp_path / "datasets"
    data.mkdir()
    (data / "run.log").write_text("root@gpu01:~# nvidia-smi\n")
    home = tmp_path / "mei"
    home.mkdir()
    (home / "notes.md").write_text("# notes\n")
    (home / "data").symlink_to(data, target_is_directory=True)
    (home / ".cache").symlink_to(data, target_is_directory=True)
    doc = analyze_path(home).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["notes"]


def test_a_transcript_folder_linked_to_its_own_home_is_no_endless_walk(tmp_path):
    home = tmp_path / "mei"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text("{}", encoding="utf-8")
    (home / ".claude" / "projects").symlink_to(home / ".claude", target_is_directory=True)
    _claude_projects(home / "work-projects")
    doc = analyze_path(home).to_json()
    assert [s["id"] for s in doc["sessions"]] == [CLAUDE]
