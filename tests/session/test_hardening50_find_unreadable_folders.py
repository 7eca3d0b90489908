"""``find / -name '*.safetensors'`` over folders it may not read exits 1 after printing what it
found and a "Permission denied" line for each such folder; Claude Code's Bash tool does not
fail it ("Some directories were inaccessible"). Read as exit 1 (test_hardening50_return_code_
interpretation), it was counted a failed command with an error; a start path that does not
exist stays a failure."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SID = "ab570000-0000-4000-8000-000000000057"
FOUND = ("/data/e3/model.safetensors\nfind: '/proc/1/fd': Permission denied\n"
         "find: '/root/.cache/private': Permission denied")


def _claude(tmp_path: Path, output: str) -> Path:
    w = _Writer(SID, None, datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("Where is the draft checkpoint on gpu01?")
    _, result = w.bash("ssh gpu01 \"find / -name '*.safetensors' -path '*e3*'\"", output)
    env = json.loads(w.lines[result])
    env["toolUseResult"]["returnCodeInterpretation"] = "Some directories were inaccessible"
    w.lines[result] = json.dumps(env)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return path


def test_a_find_past_unreadable_folders_is_no_failure(tmp_path: Path) -> None:
    a = analyze_path(_claude(tmp_path, FOUND))
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(1, False)]
    assert a.errors == []


def test_a_find_from_a_path_that_is_not_there_still_failed(tmp_path: Path) -> None:
    a = analyze_path(_claude(tmp_path, "find: '/data/e3': No such file or directory"))
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(1, True)]
    assert len(a.errors) == 1
