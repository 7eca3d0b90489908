"""``spec-debug analyze ~`` where Claude Code keeps its sessions in the XDG place,
``~/.config/claude/projects/`` (the newer default beside the older ``~/.claude/projects/``: the
two roots ryoppippi/ccusage scans, TRANSCRIPTS.md section 1a; janekbaraniewski/openusage and
siftd's adapter list both): ``.config`` was passed by with every other dot-folder, so the scan said
"no transcript files found" (or showed only the other CLIs' sessions). Now a home scan reads
``.config/claude/projects`` and nothing else of ``.config`` (other apps' configs and logs)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

CLAUDE = "c3d4e5f6-0000-4000-8000-00000000e581"


def _jsonl(path: Path, *records: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _home(root: Path) -> Path:
    home = root / "mei"
    env = {"sessionId": CLAUDE, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    _jsonl(home / ".config" / "claude" / "projects" / "-work" / f"{CLAUDE}.jsonl",
           {**env, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z",
            "message": {"role": "user", "content": "check the GPU"}},
           {**env, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-10-02T08:00:01.000Z",
            "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}},
           {**env, "type": "user", "uuid": "u3", "parentUuid": "u2", "timestamp": "2026-10-02T08:00:02.000Z",
            "toolUseResult": {"stdout": "GPU 0: H100", "stderr": "", "interrupted": False, "isImage": False},
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                     "content": "GPU 0: H100", "is_error": False}]}})
    (home / ".config" / "claude" / "settings.json").write_text('{"model": "opus"}', encoding="utf-8")
    # other apps' files in ~/.config: no sessions
    (home / ".config" / "tool").mkdir(parents=True)
    (home / ".config" / "tool" / "notes.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n")
    (home / ".config" / "tool" / "state.json").write_text('{"messages": [{"role": "user", "content": "x"}]}')
    return home


def test_a_home_scan_reads_the_xdg_claude_projects(tmp_path):
    doc = analyze_path(_home(tmp_path)).to_json()
    assert [(s["id"], s["format"]) for s in doc["sessions"]] == [(CLAUDE, "claude-code")]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 0)]


def test_naming_the_xdg_claude_folder_reads_its_projects_only(tmp_path):
    home = _home(tmp_path)
    for path in (home / ".config" / "claude", home / ".config" / "claude" / "projects"):
        doc = analyze_path(path).to_json()
        assert [s["id"] for s in doc["sessions"]] == [CLAUDE], path
