"""A report pasted as Markdown opens with its own heading ("# Ticket #161: ..."). The postmortem's
title copied the marks after its own, "# Postmortem: # Ticket #161: ...", which a Markdown
viewer shows as a stray "#" (seen on a real Claude Code session whose first prompt was a ticket).
The title now drops a heading's opening marks (CommonMark ATX: one to six #, then a space); a
"#161" that is no heading mark stays."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer


def _first_line(tmp_path: Path, report: str) -> str:
    sid = "ab590000-0000-4000-8000-000000000161"
    w = _Writer(sid, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(report)
    w.bash("ssh gpu01 nvidia-smi", "NVIDIA-SMI 550.54.15")
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return render_postmortem(analyze_path(path), "md").splitlines()[0]


@pytest.mark.parametrize("report", [
    "# Ticket #161: EAGLE-3 on gpu01 slower than baseline\n\nDecode fell to 54.8 tok/s.",
    "## Ticket #161: EAGLE-3 on gpu01 slower than baseline",
    "  ###\tTicket #161: EAGLE-3 on gpu01 slower than baseline",
])
def test_a_heading_report_gives_the_title_without_its_marks(tmp_path: Path, report: str) -> None:
    assert _first_line(tmp_path, report).startswith("# Postmortem: Ticket #161: EAGLE-3 on gpu01 slower than baseline")


def test_a_hash_that_is_no_heading_mark_stays(tmp_path: Path) -> None:
    assert _first_line(tmp_path, "#161 EAGLE-3 on gpu01 slower than baseline").startswith(
        "# Postmortem: #161 EAGLE-3 on gpu01")
