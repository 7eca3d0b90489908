"""analyze: "I confirmed that the server is not the issue." clears no open guess of the d2t map.

"The server is not the problem." already cleared only a guess sharing a topic word with it, but
with the check told first ("I confirmed that ...", "I verified ...", "Confirmed: ...") the subject
no longer opened the sentence: the newest open guess, the d2t map, showed as ruled out though
nothing of it was checked. Worse, "I confirmed that the d2t map is fine." read as a confirmation
and showed the d2t guess as found true. The check's lead-in now stands before the cleared subject
as an interjection does: the named subject clears only a guess it names, and the suspect found
fine is ruled out.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["I confirmed that the server is not the issue.", "I verified the server is not the problem.",
                                  "Confirmed: the server is not the issue.", "I checked and the server is not the issue.",
                                  "I have verified that the tokenizer is fine.", "I confirmed that it is not the server."])
def test_another_subject_clears_no_guess(tmp_path, said):
    assert outcome(said) == ("ruled_out", said)
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


@pytest.mark.parametrize("said", ["I confirmed that the d2t map is fine.", "Verified that the d2t map is correct.",
                                  "I confirmed that the d2t map is not the issue.", "I confirmed that it is not the d2t map.",
                                  "I confirmed that this is not the problem."])
def test_the_guess_or_a_pronoun_is_ruled_out(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", said)]


@pytest.mark.parametrize("said", ["I confirmed that the d2t map holds absolute ids.", "I confirmed the fix works."])
def test_a_confirmation_still_confirms(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


def test_a_planned_check_settles_nothing(tmp_path):
    said = "Let me verify that the d2t map is fine."
    assert outcome(said) is None
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]
