"""A hook that failed, in ``claude -p --verbose --output-format stream-json``: before ``init`` the
CLI writes ``{"type": "system", "subtype": "hook_started", "hook_id", "hook_name":
"SessionStart:startup", "hook_event": "SessionStart"}`` and then ``{"subtype": "hook_response",
…, "stdout", "stderr", "exit_code", "outcome": "success" | "error"}`` (the records SDK readers take
a failed hook from). Before: the failed hook's note was empty, its exit code and stderr left out;
now it says so as a transcript's ``hook_non_blocking_error`` note does ("… hook failed (exit 127):
…", test_hardening12b_hook_attachments). A hook that succeeded still adds no words."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

SESSION = "c34ee513-e375-415f-ae7b-1fb9a71b5953"


def _hook(hook_id: str, **fields) -> dict:
    return {"type": "system", "hook_id": hook_id, "hook_name": "SessionStart:startup", "hook_event": "SessionStart",
            "uuid": f"x-{hook_id}-{fields.get('subtype')}", "session_id": SESSION, **fields}


LINES = [
    _hook("a", subtype="hook_started"),
    _hook("b", subtype="hook_started"),
    _hook("b", subtype="hook_response", output="loaded", stdout="loaded", stderr="", exit_code=0, outcome="success"),
    _hook("a", subtype="hook_response", output="", stdout="", stderr="/bin/sh: node: command not found\n",
          exit_code=127, outcome="error"),
    {"type": "system", "subtype": "init", "cwd": "/work/spec", "session_id": SESSION, "tools": ["Bash"],
     "model": "claude-opus-4-5", "claude_code_version": "2.1.118", "uuid": "i1"},
    {"type": "user", "message": {"role": "user", "content": "why is the accept length 1?"},
     "parent_tool_use_id": None, "session_id": SESSION, "uuid": "u1"},
]


def test_a_failed_hooks_response_says_which_hook_how_it_exited_and_what_it_said(tmp_path: Path) -> None:
    path = tmp_path / "stream.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in LINES) + "\n", encoding="utf-8")
    events = list(claude_code.read(path, Cursor(session=SESSION, agent="main", file=str(path)), ReadStats()))
    assert [(e.raw_type, e.text) for e in events if e.raw_type == "hook_response"] == [
        ("hook_response", ""),
        ("hook_response", "SessionStart:startup hook failed (exit 127): /bin/sh: node: command not found"),
    ]
    assert [e.text for e in events if e.kind == "prompt"] == ["why is the accept length 1?"]
