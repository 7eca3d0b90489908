"""analyze: "The d2t map is fine." / "Nope, not the d2t map." rule out the open d2t guess.

Neither settled anything, so a suspect the agent had cleared stayed an open question. A
sentence opening with a named suspect found fine, or with "not the <suspect>", now rules out
the open guess it shares a topic word with; one naming another subject ("The server is fine.",
"Not the best approach.") or a subject by a pronoun ("Everything is fine") settles none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["The d2t map is fine.", "Nope, not the d2t map.", "Not the d2t map.",
                                  "OK, the d2t map looks fine."])
def test_outcome(said):
    assert outcome(said) == ("ruled_out", said)


@pytest.mark.parametrize("said", ["I am not sure the d2t map is fine.", "It is not the best approach, but fine to try?",
                                  "Everything is fine so far, but slow."])
def test_none(said):
    assert outcome(said) is None


@pytest.mark.parametrize("said", ["The d2t map is fine.", "Nope, not the d2t map."])
def test_the_guess_is_ruled_out(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", said)]


@pytest.mark.parametrize("said", ["The server is fine.", "Not the best approach."])
def test_another_subject_settles_none(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]
