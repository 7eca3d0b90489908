"""analyze: `cat NOTES.md` shows a notes file as the Read tool does, so its numbers are stated.

857564d3 made a notes file read by a file tool (Read NOTES.md) a report: its numbers "prose", its
errors quoted. The same file shown by a command (`cat NOTES.md`, `head -n 40 NOTES.md`) still gave
its "95 tok/s vs baseline 140 tok/s" as readings the command printed (source "output"). A command
that only shows prose documents (a pager, perhaps piped into head/grep) is now read the same way;
one that also shows a log, or runs anything else, is still measured.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell import shows_notes
from tests.session.incident_story import _Writer

NOTES = "# notes\n- EAGLE-3: 95 tok/s vs baseline 140 tok/s (0.68x).\n"


def _analyze(tmp_path, command, output):
    w = _Writer("62620000-0000-4000-8000-0000000000c1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Summarize what we found about the EAGLE-3 slowdown.")
    w.bash(command, output)
    w.say("Here is the summary.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("command", ["cat /root/NOTES.md", "head -n 40 docs/incident.rst",
                                     "less SUMMARY.markdown", "cat NOTES.md | grep tok", "cd /root && cat NOTES.md"])
def test_a_shown_notes_file_is_stated(tmp_path, command):
    a = _analyze(tmp_path, command, NOTES)
    assert [(m.name, m.value, m.source) for m in a.metrics] == [
        ("baseline_throughput", 140.0, "prose"), ("throughput", 95.0, "prose")]


@pytest.mark.parametrize("command", ["cat NOTES.md server.log", "cat NOTES.md && ./bench.sh",
                                     "cat server.log", "python3 bench.py --out result.md",
                                     "cat notes.md.d/bench.txt"])
def test_a_command_that_shows_more_is_measured(tmp_path, command):
    a = _analyze(tmp_path, command, NOTES)
    assert {m.source for m in a.metrics} == {"output"}


def test_shows_notes():
    assert shows_notes("head -50 NOTES.md")
    assert shows_notes("cat a.md b.rst")
    assert not shows_notes("cat a.md b.log")
    assert not shows_notes("cat NOTES.md | python3 parse.py")
    assert not shows_notes("vim NOTES.md")
