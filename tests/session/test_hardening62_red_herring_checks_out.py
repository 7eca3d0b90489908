"""analyze: "The d2t map was a red herring." / "... checks out." / "... is not to blame." /
"Never mind, the d2t map is fine." rule out the open d2t guess.

Each is how an agent clears a suspect, and none settled anything: the guess stayed an open question
in hypotheses[] and the postmortem. They now rule it out; one naming another subject ("The server
is not to blame.", "The server was a red herring.") clears no d2t guess, and a plan, question,
hedge or condition ("Let me check out the d2t branch.", "Is the d2t map a red herring?", "If the
d2t map checks out, ...") clears nothing.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["The d2t map was a red herring.", "The d2t map checks out.", "The d2t map is not to blame.",
                                  "The d2t map isn't to blame.", "Never mind, the d2t map is fine.",
                                  "Scratch that: the d2t map is fine after all.", "That was a red herring."])
def test_the_guess_is_ruled_out(tmp_path, said):
    assert outcome(said) == ("ruled_out", said)
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", said)]


@pytest.mark.parametrize("said", ["Let me check out the d2t branch.", "Is the d2t map a red herring?",
                                  "The d2t map may be a red herring.", "If the d2t map checks out, the layers are next.",
                                  "Maybe the d2t map is to blame."])
def test_none(said):
    assert outcome(said) is None


@pytest.mark.parametrize("said", ["The server is not to blame.", "The server was a red herring.", "The benchmark checks out."])
def test_another_subject_clears_no_guess(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]
