"""A finding's evidence in the postmortem reads in the session's order. A baseline said late
(141 tok/s measured at [msg 41]) is compared with the readings before it only then, so their
SD501 lines came after the later readings': [msg 11], [msg 31], [msg 27], [msg 42], [msg 51]."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_cli

STORY = Path(__file__).resolve().parents[1] / "data" / "transcripts_vocabmap"


def _section(markdown: str, heading: str) -> str:
    start = markdown.index(heading)
    end = markdown.find("\n### ", start + 1)
    return markdown[start:end if end >= 0 else len(markdown)]


def test_sd501_evidence_lines_are_in_seq_order() -> None:
    result = run_cli("analyze", str(STORY))
    assert result.code == 0, result.stderr
    sd501 = _section(result.stdout, "### SD501")
    firsts = [int(m.group(1)) for m in re.finditer(r"^- \[\[msg (\d+)\]\]", sd501, re.M)]
    assert len(firsts) >= 3
    assert firsts == sorted(firsts)
