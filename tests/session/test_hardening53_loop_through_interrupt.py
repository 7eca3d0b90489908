"""analyze: a run the person stopped does not end a loop of failing runs.

The agent runs the same failing test three times; between the failures the person stops one run
(Esc in Claude Code: "[Request interrupted by user for tool use]"). The stopped run counted as a
success of the command and ended the streak: two streaks of two failures, no loop in the JSON or
the postmortem's "What went wrong". A stopped run now neither counts in nor ends the streak.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

RUN = "ssh gpu01 '~/venv/bin/python /tmp/test_drafter.py'"
CRASH = "Traceback (most recent call last):\n  File \"/tmp/test_drafter.py\", line 9, in <module>\nNameError: name 'attn_input' is not defined"


def _stopped(w: _Writer, command: str) -> int:
    call = w.assistant({"type": "tool_use", "id": f"toolu_stop{w.n}", "name": "Bash", "input": {"command": command}})
    env = w._env("user")
    env["message"] = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_stop{w.n - 2}",
                                                   "content": "[Request interrupted by user for tool use]",
                                                   "is_error": True}]}
    w._add(env)
    return call


def test_a_stopped_run_keeps_the_streak(tmp_path):
    w = _Writer("53530000-0000-4000-8000-0000000000c1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Make the standalone drafter test pass on gpu01.")
    first, _ = w.bash(RUN, CRASH, exit_code=1)
    w.bash(RUN, CRASH, exit_code=1)
    _stopped(w, RUN)
    last, _ = w.bash(RUN, CRASH, exit_code=1)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert a.stats["interrupts"] == 1
    assert [(lp.count, lp.first_seq, lp.last_seq, lp.error) for lp in a.loops] == [(3, first, last, "NameError")]
