"""``spec-debug analyze ~``: the CLIs keep their sessions under dot-folders (``~/.claude/projects``,
``~/.codex/sessions``, ``~/.factory/sessions``), which a folder scan passed by with every other
dot-folder (.git, .cache, .venv), so a home scan found none of them. Now a dot-folder is entered
when it is a CLI's home (its name and what it holds); a project's own ``.claude/`` (commands and
agents in Markdown) is still passed by."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CLAUDE = "c3d4e5f6-0000-4000-8000-00000000d001"
CODEX = "rollout-2026-10-02T08-00-00-0199a1b2-0000-7000-8000-00000000d002"
DROID = "d4e5f6a7-0000-4000-8000-00000000d003"


def _jsonl(path: Path, *records: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _home(root: Path) -> Path:
    home = root / "mei"
    env = {"sessionId": CLAUDE, "cwd": "/work", "version": "2.0.14"}
    _jsonl(home / ".claude" / "projects" / "-work" / f"{CLAUDE}.jsonl",
           {**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z",
            "message": {"role": "user", "content": "check the GPU"}},
           {**env, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-10-02T08:00:01.000Z",
            "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}})
    (home / ".claude" / "settings.json").write_text('{"model": "opus"}', encoding="utf-8")
    _jsonl(home / ".codex" / "sessions" / "2026" / "10" / "02" / f"{CODEX}.jsonl",
           {"timestamp": "2026-10-02T08:00:00.000Z", "type": "session_meta",
            "payload": {"id": "0199a1b2-0000-7000-8000-00000000d002", "cwd": "/work", "originator": "codex_cli_rs"}},
           {"timestamp": "2026-10-02T08:00:01.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}})
    (home / ".codex" / "config.toml").write_text('model = "gpt-5.1-codex"\n', encoding="utf-8")
    # Factory Droid: ~/.factory/sessions/<cwd slug>/<id>.jsonl beside <id>.settings.json
    droid = home / ".factory" / "sessions" / "-work"
    _jsonl(droid / f"{DROID}.jsonl",
           {"type": "session_start", "id": DROID, "title": "gpu", "cwd": "/work"},
           {"type": "message", "id": "m1", "timestamp": "2026-10-02T08:00:00.000Z",
            "message": {"role": "user", "content": [{"type": "text", "text": "check the GPU"}]}})
    (droid / f"{DROID}.settings.json").write_text('{"model": "claude-sonnet-4-5"}', encoding="utf-8")
    # dot-folders that are no CLI home: a repository's own .claude/ and .git/
    project = home / "repo"
    (project / ".claude" / "commands").mkdir(parents=True)
    (project / ".claude" / "commands" / "gpu.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n")
    (project / ".git").mkdir()
    (project / ".git" / "notes.log").write_text("$ make test\n")
    (project / "notes.md").write_text("# notes\n$ nvidia-smi\n")
    return home


def test_a_home_scan_reads_the_sessions_under_the_cli_homes(tmp_path):
    doc = analyze_path(_home(tmp_path)).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == sorted([CLAUDE, CODEX, DROID, "notes"])
    assert not any("gpu.md" in s["file"] or ".git" in s["file"] for s in doc["sessions"])


def test_a_project_claude_folder_alone_is_still_passed_by(tmp_path):
    home = _home(tmp_path)
    doc = analyze_path(home / "repo").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["notes"]


def test_a_pi_home_gives_its_sessions_not_its_prompt_templates(tmp_path):
    from tests.session import test_hardening20_formats_pi_sessions as pi_sessions

    agent = tmp_path / "mei" / ".pi" / "agent"
    folder = agent / "sessions" / "--work-spec--"
    folder.mkdir(parents=True)
    session = pi_sessions._session(folder)
    (agent / "settings.json").write_text('{"defaultProvider": "anthropic"}', encoding="utf-8")
    (agent / "prompts").mkdir()
    (agent / "prompts" / "gpu.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n", encoding="utf-8")
    project = tmp_path / "mei" / "repo" / ".pi"
    (project / "prompts").mkdir(parents=True)
    (project / "prompts" / "x.md").write_text("$ make test\n", encoding="utf-8")
    for path in (tmp_path / "mei", agent.parent, agent):
        doc = analyze_path(path).to_json()
        assert [(s["file"], s["format"]) for s in doc["sessions"]] == [(str(session), "pi")], path
