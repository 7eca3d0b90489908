"""Detection of the formats added today against real shapes they must (and must not) take.

Gemini CLI's ``gemini -p … --output-format json`` document (``JsonOutput``,
google-gemini/gemini-cli ``packages/core/src/output/types.ts``) gained the login's
``auth_method`` and ``user_tier`` in later releases; with them the document was no Gemini CLI
output and was read as one unknown Claude Code record (its answer and its error lost)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_STATS = {"models": {"gemini-2.5-pro": {"api": {"totalRequests": 2, "totalErrors": 0, "totalLatencyMs": 5120},
                                        "tokens": {"prompt": 4100, "candidates": 210, "total": 4310, "cached": 0,
                                                   "thoughts": 0, "tool": 0}}},
          "tools": {"totalCalls": 0, "totalSuccess": 0, "totalFail": 0, "totalDurationMs": 0,
                    "totalDecisions": {"accept": 0, "reject": 0, "modify": 0, "auto_accept": 0}, "byName": {}},
          "files": {"totalLinesAdded": 0, "totalLinesRemoved": 0}}


def test_a_json_output_with_the_login_fields_is_gemini_clis(tmp_path):
    path = tmp_path / "gemini-run.json"
    path.write_text(json.dumps({"session_id": "5d2c1e6a-9b7f-4c3e-8a21-0f6e4d3b2a10", "auth_method": "gemini-api-key",
                                "user_tier": "free", "stats": _STATS,
                                "error": {"type": "FatalAuthenticationError", "message": "API key not valid",
                                          "code": 41}}, indent=2), encoding="utf-8")
    a = analyze_path(path).to_json()
    assert a["sessions"][0]["format"] == "gemini-cli"
    assert a["sessions"][0]["unknown_types"] == 0
    assert [e["message"] for e in a["errors"] if e["kind"] == "agent_error"] == ["API key not valid"]


_NOTE = """# gpu01 incident notes

## Copilot

Copilot's /share of the run is in copilot-session.md; Gemini's export showed this call:

**Tool Command**:
```json
{"name": "run_shell_command", "args": {"command": "ssh gpu01 nvidia-smi"}}
```

Then we ran:

```bash
$ ssh gpu01 'tail -n 50 /tmp/sglang.log'
```
"""


def test_a_markdown_note_with_a_json_line_is_a_text_log(tmp_path):
    """Before, one JSON line among the prose made the note an unknown Claude Code session:
    named alone it was refused as "not a session transcript", in a folder its commands lost."""
    note = tmp_path / "notes" / "incident.md"
    note.parent.mkdir()
    note.write_text(_NOTE, encoding="utf-8")
    for path in (note, note.parent):
        a = analyze_path(path)
        assert [s["format"] for s in a.sessions] == ["text"], path
        assert "ssh gpu01 'tail -n 50 /tmp/sglang.log'" in [c.command for c in a.commands], path


def test_a_streams_retry_and_loop_events_are_warnings(tmp_path):
    """Later releases add ``retry`` (a model request retried) and ``loop_detected`` events to the
    stream (``JsonStreamEventType`` in a newer ``types.ts``); they were records of an unknown type."""
    t = "2026-10-02T08:00:0{}.000Z"
    events = [{"type": "init", "timestamp": t.format(0), "session_id": "s1", "model": "gemini-2.5-pro",
               "auth_method": "gemini-api-key"},
              {"type": "message", "timestamp": t.format(1), "role": "user", "content": "why is accept len 1.0?"},
              {"type": "retry", "timestamp": t.format(2), "attempt": 1, "max_attempts": 3, "delay_ms": 5000,
               "error": "429 RESOURCE_EXHAUSTED", "model": "gemini-2.5-pro"},
              {"type": "tool_use", "timestamp": t.format(3), "tool_name": "run_shell_command", "tool_id": "c1",
               "parameters": {"command": "ssh gpu01 nvidia-smi"}},
              {"type": "tool_result", "timestamp": t.format(4), "tool_id": "c1", "status": "success", "output": "ok"},
              {"type": "loop_detected", "timestamp": t.format(5), "loop_type": "consecutive_identical_tool_calls"},
              {"type": "result", "timestamp": t.format(6), "status": "success", "stats": {"total_tokens": 10}}]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    a = analyze_path(path).to_json()
    assert a["sessions"][0]["format"] == "gemini-cli" and a["sessions"][0]["unknown_types"] == 0
    assert [c["command"] for c in a["commands"]] == ["ssh gpu01 nvidia-smi"]
