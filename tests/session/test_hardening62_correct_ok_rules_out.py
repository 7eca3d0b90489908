"""analyze: "The d2t map is correct." / "the d2t map is OK" rule out the open d2t guess.

"The d2t map is fine." ruled out the open guess it names, but the agent's other words for the same
verdict, "correct" and "OK", settled nothing: the guess it had cleared stayed an open question in
the JSON's hypotheses and the postmortem. They now clear it as "fine" does. Not cleared: a change
that worked ("is correct now", "fine now"), a condition ("If the d2t map is correct, ..." was read
as a verdict for "fine" too), a question, "incorrect", "correctly loaded", another subject.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["The d2t map is correct.", "The d2t map is OK.", "OK, the d2t map looks correct to me.",
                                  "The d2t mapping is okay.", "d2t is correct."])
def test_the_guess_is_ruled_out(tmp_path, said):
    assert outcome(said) == ("ruled_out", said)
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", said)]


@pytest.mark.parametrize("said", ["The d2t map is correct now.", "The d2t map is fine now.", "Is the d2t map correct?",
                                  "If the d2t map is correct, the acceptance should be high.",
                                  "If the d2t map is fine, the acceptance should be high.",
                                  "When the d2t map is OK, the rest follows.", "The d2t map is incorrect.",
                                  "The d2t map is correctly loaded.", "I am not sure the d2t map is correct.",
                                  "The d2t map is okay-ish."])
def test_none(tmp_path, said):
    assert outcome(said) is None
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


@pytest.mark.parametrize("said", ["The server is correct.", "The answer is OK."])
def test_another_subject_settles_none(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]
