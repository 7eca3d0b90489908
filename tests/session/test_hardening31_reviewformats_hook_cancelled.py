"""Review of round 31's stream-json hook_response note (formats): ``outcome`` is ``"success" |
"error" | "cancelled"`` (the Agent SDK's SDKHookResponseMessage). A cancelled hook was said to have
"failed"; now "hook cancelled", as a transcript's ``hook_cancelled`` attachment is said."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

SESSION = "5a0c1e2f-1111-4222-8333-444455556666"


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_a_cancelled_hooks_response_says_it_was_cancelled_not_that_it_failed(tmp_path):
    hook = {"type": "system", "hook_id": "h", "hook_name": "SessionStart:startup", "hook_event": "SessionStart",
            "session_id": SESSION}
    lines = [dict(hook, subtype="hook_started", uuid="s"),
             dict(hook, subtype="hook_response", uuid="r", output="", stdout="", stderr="", outcome="cancelled")]
    path = _write(tmp_path / "stream.jsonl", lines)
    events = list(claude_code.read(path, Cursor(session=SESSION, agent="main", file=str(path)), ReadStats()))
    assert [e.text for e in events if e.raw_type == "hook_response"] == ["SessionStart:startup hook cancelled"]
