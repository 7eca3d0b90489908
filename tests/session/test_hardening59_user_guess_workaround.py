"""analyze: a guess at what the user wants is no hypothesis; a workaround settles no guess.

"Maybe the user wants the JSON output" opened a hypothesis (a sentence opening with "Maybe the"):
it is about the request, not the fault, and stayed an open question of the postmortem for ever.
A sentence-opening guess about the user is none now; one about the user's files ("Maybe the
user's launch script passes the old draft") still is.

"This works around the OOM" read as "this works" and confirmed the open guess about the layer
order. A workaround says nothing of whether the suspect was right: it settles nothing now.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses, outcome
from tests.session.test_hardening48_stated_root_cause import _session

LAYERS = "I suspect the hidden-state layer order of the draft is wrong."


@pytest.mark.parametrize("said", [
    "Maybe the user wants the JSON output.",
    "Perhaps the user expects a summary table.",
    "Probably the users only need the throughput numbers.",
])
def test_a_guess_at_the_request_is_no_hypothesis(tmp_path, said):
    assert hypotheses(said) == []
    assert _session(tmp_path, said).hypotheses == []


def test_a_guess_at_the_users_files_is_one():
    said = "Maybe the user's launch script passes the old draft path."
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", [
    "This works around the OOM.",
    "That works around the OOM for now, with --mem-fraction-static 0.8.",
])
def test_a_workaround_settles_no_guess(tmp_path, said):
    assert outcome(said) is None
    a = _session(tmp_path, LAYERS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open")]


def test_this_works_still_confirms():
    assert outcome("This works: 96.8 tok/s with the layer ids fixed.")[0] == "confirmed"
