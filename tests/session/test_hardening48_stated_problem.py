"""analyze: "The problem was ..." in a closing summary is no new open hypothesis either.

After its suspect was confirmed and fixed, an agent sums up "Fixed. The problem was the export
writing d2t as absolute target ids." The pattern's "the problem was" made that a guess of its
own, open to the end of the session, like the "Root cause: ..." summary before it. Said in the
past tense at the start of a sentence, unhedged, it now settles the open suspect it names or is
no hypothesis; "The issue is that ..." (what the agent is looking at) stays one.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SUSPECT = "I suspect the vocab map (d2t/t2d) of the new draft."
CONFIRMED = "That confirms it: d2t[1000:1006] holds absolute ids, not offsets."


def _hypotheses(tmp_path, *texts: str):
    w = _Writer("48480000-0000-4000-8000-0000000000c8", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    for text in texts:
        w.bash("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}', text=text)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [(h.text, h.status) for h in analyze_path(path).hypotheses]


@pytest.mark.parametrize("summary", [
    "The problem was the export writing d2t as absolute target ids instead of offsets.",
    "So the bug was in tools/export_eagle3.py: it wrote d2t as absolute target ids.",
])
def test_a_closing_problem_was_opens_nothing(tmp_path, summary):
    assert _hypotheses(tmp_path, SUSPECT, CONFIRMED, "Fixed. " + summary) == [(SUSPECT, "confirmed")]


def test_the_issue_is_stays_a_guess(tmp_path):
    guess = "The issue is that the draft's d2t holds absolute ids."
    assert _hypotheses(tmp_path, guess) == [(guess, "open")]
