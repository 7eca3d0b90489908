"""analyze: a new root cause that shares one word with a settled suspect is still a new cause.

An agent confirmed "the draft's vocab map" as a suspect, then later states another cause:
"Root cause: the draft's fc layer expects the embedding first". A stated cause restating one
settled before is no new hypothesis, and one shared topic word ("draft") made it such a
restatement: the second cause was dropped from hypotheses[] altogether. A restatement now
shares at least two topic words with the settled one (all of them, when it has fewer).
"""

from __future__ import annotations

from tests.session.test_hardening48_stated_root_cause import _session

SUSPECT = "I suspect the draft's vocab map (d2t/t2d)."
CONFIRMED = "Confirmed: the draft's d2t holds absolute ids."


def test_a_cause_sharing_one_word_with_a_settled_one_is_kept(tmp_path):
    other = "Root cause: the draft's fc layer expects the embedding first in the concat."
    a = _session(tmp_path, SUSPECT, CONFIRMED, other)
    assert [(h.text, h.status) for h in a.hypotheses] == [(SUSPECT, "confirmed"), (other, "open")]


def test_a_restatement_is_still_no_new_hypothesis(tmp_path):
    again = "Root cause: the vocab map's d2t held absolute ids."
    a = _session(tmp_path, SUSPECT, CONFIRMED, again)
    assert [(h.text, h.status) for h in a.hypotheses] == [(SUSPECT, "confirmed")]


def test_a_one_word_restatement_is_still_no_new_hypothesis(tmp_path):
    a = _session(tmp_path, SUSPECT, CONFIRMED, "Root cause: d2t.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(SUSPECT, "confirmed")]
