"""``spec-debug analyze ~`` for a user who keeps a ``sessions/`` folder (saved terminal logs) and a
``log/`` folder in the home folder: that pair is what tells Codex's home (``~/.codex/sessions/``
beside ``log/codex-tui.log``, TRANSCRIPTS.md section 1b), so ``~`` itself was taken for Codex's
home, ``~/sessions/`` read alone, and ``~/.codex`` and ``~/.claude`` never entered: the Codex
rollout and every Claude session silently left out. Now a folder that holds a CLI's home
(``.codex/``, ``.claude/``, ...) is the user's home, never a CLI's own. Shapes: a Codex rollout's
``session_meta`` and ``response_item`` lines under ``sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

ROLLOUT = "rollout-2026-10-02T08-00-00-0199a1b2-0000-7000-8000-00000000f592"


def test_a_home_with_sessions_and_log_folders_is_not_codexs_home(tmp_path: Path) -> None:
    home = tmp_path / "mei"
    rollout = home / ".codex" / "sessions" / "2026" / "10" / "02" / f"{ROLLOUT}.jsonl"
    rollout.parent.mkdir(parents=True)
    rollout.write_text("".join(json.dumps(r) + "\n" for r in [
        {"timestamp": "2026-10-02T08:00:00.000Z", "type": "session_meta",
         "payload": {"id": "0199a1b2-0000-7000-8000-00000000f592", "cwd": "/work", "originator": "codex_cli_rs"}},
        {"timestamp": "2026-10-02T08:00:01.000Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "check gpu01"}]}}]))
    (home / ".codex" / "config.toml").write_text('model = "gpt-5.1-codex"\n')
    (home / "sessions").mkdir()
    (home / "sessions" / "gpu01.log").write_text("$ nvidia-smi\nNo devices were found\n")
    (home / "log").mkdir()
    (home / "log" / "bench.log").write_text("$ python bench.py\nOutput token throughput (tok/s): 812.4\n")
    ids = sorted(s["id"] for s in analyze_path(home).to_json()["sessions"])
    assert ids == sorted([ROLLOUT, "gpu01", "bench"])  # was ["gpu01"] alone
