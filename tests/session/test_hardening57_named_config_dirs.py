"""``spec-debug analyze ~`` for someone with two accounts: ``CLAUDE_CONFIG_DIR=~/.claude-work``
and ``CODEX_HOME=~/.codex-work`` (the variables that move the CLIs' homes, TRANSCRIPTS.md
sections 1a and 1b: ryoppippi/ccusage reads ``CLAUDE_CONFIG_DIR``, Codex ``$CODEX_HOME``). The
home scan entered a dot-folder only under a CLI home's own name, so ``.claude-work`` and
``.codex-work`` were passed by with .cache and .git, their sessions never read. Now a dot-folder
named after a CLI home (``.claude-*``, ``.codex_*``) is one when it holds that CLI's home files;
without them it is still passed by."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CLAUDE = "c3d4e5f6-0000-4000-8000-00000000e5b1"
CODEX = "rollout-2026-10-02T08-00-00-0199a1b2-0000-7000-8000-00000000e5b2"


def _jsonl(path: Path, *records: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _home(root: Path) -> Path:
    home = root / "mei"
    env = {"sessionId": CLAUDE, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    _jsonl(home / ".claude-work" / "projects" / "-work" / f"{CLAUDE}.jsonl",
           {**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z",
            "message": {"role": "user", "content": "check the GPU"}})
    (home / ".claude-work" / "settings.json").write_text('{"model": "opus"}', encoding="utf-8")
    _jsonl(home / ".codex_work" / "sessions" / "2026" / "10" / "02" / f"{CODEX}.jsonl",
           {"timestamp": "2026-10-02T08:00:00.000Z", "type": "session_meta",
            "payload": {"id": "0199a1b2-0000-7000-8000-00000000e5b2", "cwd": "/work", "originator": "codex_cli_rs"}},
           {"timestamp": "2026-10-02T08:00:01.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}})
    (home / ".codex_work" / "config.toml").write_text('model = "gpt-5.1-codex"\n', encoding="utf-8")
    # a backup of a project's own .claude/: no home files beside a projects/ folder of notes
    (home / ".claude-old" / "projects").mkdir(parents=True)
    (home / ".claude-old" / "projects" / "todo.md").write_text("$ make\n")
    return home


def test_a_home_scan_reads_the_clis_homes_moved_by_their_variables(tmp_path):
    doc = analyze_path(_home(tmp_path)).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == sorted([CLAUDE, CODEX])
