"""Pi's bash tool kills a command at the timeout the model gave it and fails with the output so
far, a blank line, then "Command timed out after N seconds" (badlogic/pi-mono
``packages/coding-agent/src/core/tools/bash.ts`` at 0507789f, its ``timeout:`` rejection). Before:
the timeout's message was the output's first line (a benchmark's "warming up"), so the postmortem
said the command timed out with "warming up". Now it is the tool's own note, which says how long
it was let run. The session is written in pi's shape (as the Pi tests beside this one)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening62_pi_command_aborted import _pi_session


def test_the_timeout_is_the_tools_note(tmp_path: Path) -> None:
    doc = analyze_path(_pi_session(tmp_path, "python3 bench_eagle3.py --steps 5",
                                   "warming up\n[rank0] step 10 accept_len 2.91\n\n"
                                   "Command timed out after 180 seconds")).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [True]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("timeout", "Command timed out after 180 seconds")]

