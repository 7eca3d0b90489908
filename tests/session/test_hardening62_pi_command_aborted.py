"""Pi's bash tool, stopped by the person (Esc aborts the turn's signal), fails with what the
command printed so far, a blank line and "Command aborted" (badlogic/pi-mono
``packages/coding-agent/src/core/tools/bash.ts``: ``appendStatus(text, "Command aborted")``, the
result ``isError: true``), as a session of pi 1.0.2 writes it (the shape of Syakyr/ass-bench
``session.jsonl``, commit c9fd02cab5a01277306a0a0bc354cbf78e45f33c). Before: a ``tail -f`` of the
server's log that the person stopped was a failed command, its error the log's first line. Now it
is an interrupt (steering, as Claude Code's and Codex's stopped commands are), not a failure; a
timeout of the same tool stays a timeout."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _pi_session(tmp_path: Path, command: str, output: str) -> Path:
    lines = [
        {"type": "session", "version": 3, "id": "01a119e9-504e-72e5-b4ad-39af023cb3d6",
         "timestamp": "2026-10-08T05:08:03.279Z", "cwd": "/home/user/bench"},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": "2026-10-08T05:08:07.440Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "watch the server start"}],
                     "timestamp": 1791436087438}},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": "2026-10-08T05:08:34.266Z",
         "message": {"role": "assistant", "api": "openai-completions", "stopReason": "toolUse",
                     "content": [{"type": "toolCall", "id": "call_1", "name": "bash",
                                  "arguments": {"command": command}}]}},
        {"type": "message", "id": "r1", "parentId": "a1", "timestamp": "2026-10-08T05:09:34.288Z",
         "message": {"role": "toolResult", "toolCallId": "call_1", "toolName": "bash",
                     "content": [{"type": "text", "text": output}], "isError": True, "timestamp": 1791436174288}},
    ]
    path = tmp_path / "2026-10-08T05-08-03-279Z_01a119e9-504e-72e5-b4ad-39af023cb3d6.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_stopped_tail_is_an_interrupt(tmp_path: Path) -> None:
    doc = analyze_path(_pi_session(tmp_path, "tail -f logs/sglang.log",
                                   "[2026-10-08 05:09:01] Load weight end.\n[2026-10-08 05:09:30] Capture cuda graph "
                                   "begin.\n\nCommand aborted")).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("tail -f logs/sglang.log", False)]
    assert doc["errors"] == []
    assert doc["stats"]["interrupts"] == 1


def test_stopped_before_it_printed(tmp_path: Path) -> None:
    doc = analyze_path(_pi_session(tmp_path, "sleep 600", "Command aborted")).to_json()
    assert doc["errors"] == [] and doc["stats"]["interrupts"] == 1


def test_a_timeout_stays_a_timeout(tmp_path: Path) -> None:
    doc = analyze_path(_pi_session(tmp_path, "python3 bench.py",
                                   "warming up\n\nCommand timed out after 180 seconds")).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [True]
    assert [e["kind"] for e in doc["errors"]] == ["timeout"]
    assert doc["stats"]["interrupts"] == 0
