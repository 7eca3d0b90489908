"""``which nvcc`` (or ``pidof sglang``) exiting 1 answers "not installed" ("not running"), as a
grep that selects nothing answers: it was a failed call, and the postmortem's "First error:
exit_code: exit code 1" pointed at it instead of the traceback the session went on to hit."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

CHECK = "ssh gpu01 'python /root/check.py'"


@pytest.mark.parametrize("probe", ["ssh gpu01 'which nvcc'", "ssh gpu01 'pidof python3'", "which nvcc"])
def test_a_probe_that_finds_nothing_is_no_first_error(tmp_path, probe):
    w = _Writer("57570000-0000-4000-8000-0000000000b4", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 gives 60 tok/s; without speculation 90 tok/s.")
    w.bash(probe, "", exit_code=1)
    w.bash(CHECK, "Traceback (most recent call last):\n  File \"/root/check.py\", line 1, in <module>\n"
           "RuntimeError: d2t shape mismatch", exit_code=1)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    check = next(c for c in a.commands if c.command == CHECK)
    assert [(e.command_seq, e.kind) for e in a.errors] == [(check.seq, "traceback")]
    md = render_postmortem(a, "md")
    assert "First error: RuntimeError: d2t shape mismatch" in md


def test_which_failing_otherwise_still_fails(tmp_path):
    w = _Writer("57570000-0000-4000-8000-0000000000b5", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Is nvcc on gpu01?")
    w.bash("ssh gpu01 'which --bogus nvcc'", "Illegal option --bogus", exit_code=2)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [e.kind for e in analyze_path(path).errors] != []
