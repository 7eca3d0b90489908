"""A folder's postmortem timeline keeps each session's rows and times to that session: seq
counts per session, so two sessions' message 0 are different messages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import _timeline

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts"


def test_a_session_without_times_borrows_none_from_another(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    shutil.copy(DATA / "claude-code" / "representative_messages.jsonl", folder / "a_claude.jsonl")
    # a shell log has no times at all; its prompt and error are messages 0 and 1 of its own session
    (folder / "b_shell.log").write_text(
        "[msg 0] user: the drafter test crashes, please look\n"
        "[msg 1] assistant: running it\n"
        "$ python test_drafter_standalone.py\n"
        "Traceback (most recent call last):\n"
        '  File "test_drafter_standalone.py", line 12, in <module>\n'
        "    run()\n"
        "NameError: name 'attn_input' is not defined\n")
    analysis = analyze_path(folder)
    assert len(analysis.sessions) == 2
    claude_times = {s["id"]: (s["first_timestamp"], s["last_timestamp"]) for s in analysis.sessions}
    assert any(t != (None, None) for t in claude_times.values())
    shell_rows = [row for row in _timeline(analysis) if "attn_input" in row["text"]]
    assert shell_rows, json.dumps(_timeline(analysis), indent=1)[:2000]
    assert all(row["timestamp"] is None for row in shell_rows)  # before: the Claude session's last time
