"""analyze: "The problem was ..." in a closing summary is no new open hypothesis either.

After its suspect was confirmed and fixed, an agent sums up "Fixed. The problem was the export
writing d2t as absolute target ids." The pattern's "the problem was" made that a guess of its
own, open to the end of the session, like the "Root cause: ..." summary before it. Said in the
past tense at the start of a sentence, unhedged, it now settles the open suspect it names or is
no hypothesis; "The issue is that ..." (what the agent is looking at) stays one.
"""

from __future__ import annotations

import pytest

from tests.session.test_hardening48_stated_root_cause import CONFIRMED, SUSPECT, _session


def _hypotheses(tmp_path, *texts: str):
    return [(h.text, h.status) for h in _session(tmp_path, *texts).hypotheses]


@pytest.mark.parametrize("summary", [
    "The problem was the export writing d2t as absolute target ids instead of offsets.",
    "So the bug was in tools/export_eagle3.py: it wrote d2t as absolute target ids.",
])
def test_a_closing_problem_was_opens_nothing(tmp_path, summary):
    assert _hypotheses(tmp_path, SUSPECT, CONFIRMED, "Fixed. " + summary) == [(SUSPECT, "confirmed")]


def test_the_issue_is_stays_a_guess(tmp_path):
    guess = "The issue is that the draft's d2t holds absolute ids."
    assert _hypotheses(tmp_path, guess) == [(guess, "open")]
