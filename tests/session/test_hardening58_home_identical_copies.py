"""A home scan where one Claude Code session was copied into a second CLI home (``cp -r ~/.claude
~/.claude-backup``; a second account's ``CLAUDE_CONFIG_DIR``) read both copies: its commands and
errors counted twice, two sessions reported. Resumed copies were told apart only within one
folder. Now a file that copies one already read (same session id, size and ends) is skipped, the
first kept, and the stderr summary and ``stats.copies_skipped`` say how many. A session of the same
id that differs (the backup taken before the session went on) is still read. Shapes: Claude Code's
lines (TRANSCRIPTS.md section 1a) under ``projects/<cwd slug>/<session id>.jsonl``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from spec_debug.session import analyze_path

SID = "c3d4e5f6-0000-4000-8000-00000000d0d0"


def _lines(n_calls: int) -> str:
    env = {"sessionId": SID, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    rows = [{**env, "uuid": "u0", "parentUuid": None, "timestamp": "2026-10-02T08:00:00.000Z", "type": "user",
             "message": {"role": "user", "content": "start the eagle server"}}]
    for i in range(n_calls):
        rows.append({**env, "uuid": f"a{i}", "parentUuid": rows[-1]["uuid"], "timestamp": f"2026-10-02T08:01:{i:02d}.000Z",
                     "type": "assistant", "message": {"id": f"m{i}", "role": "assistant", "content": [
                         {"type": "tool_use", "id": f"t{i}", "name": "Bash", "input": {"command": "python3 serve.py"}}]}})
        rows.append({**env, "uuid": f"r{i}", "parentUuid": f"a{i}", "timestamp": f"2026-10-02T08:02:{i:02d}.000Z",
                     "type": "user", "message": {"role": "user", "content": [
                         {"type": "tool_result", "tool_use_id": f"t{i}", "is_error": True,
                          "content": "RuntimeError: CUDA error: an illegal memory access was encountered"}]}})
    return "".join(json.dumps(r) + "\n" for r in rows)


def _home(root: Path, texts: dict[str, str]) -> Path:
    for home, text in texts.items():
        folder = root / home / "projects" / "-work"
        folder.mkdir(parents=True)
        (root / home / "settings.json").write_text("{}")
        (folder / f"{SID}.jsonl").write_text(text)
    return root


def test_an_identical_copy_in_a_second_home_is_read_once(tmp_path):
    home = _home(tmp_path / "home", {".claude": _lines(1), ".claude-backup": _lines(1)})
    out = tmp_path / "a.json"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(home), "--format", "json", "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert [s["file"] for s in doc["sessions"]] == [str(home / ".claude" / "projects" / "-work" / f"{SID}.jsonl")]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_error"]
    assert (doc["stats"]["sessions"], doc["stats"]["copies_skipped"]) == (1, 1)
    assert "1 identical copy of a session skipped" in done.stderr


def test_a_backup_that_differs_is_still_read(tmp_path):
    home = _home(tmp_path / "home", {".claude": _lines(2), ".claude-backup": _lines(1)})
    doc = analyze_path(home).to_json()
    assert (doc["stats"]["sessions"], doc["stats"]["copies_skipped"]) == (2, 0)
