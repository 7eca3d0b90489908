"""analyze: "The server is not the problem." clears no open guess of the d2t map.

"The server is fine." already cleared only a guess sharing its topic words, but "The server is not
the problem." (and "Throughput is not the problem; acceptance is.") ruled out the newest open guess
whatever it named: the d2t guess, never checked, showed as ruled out. A sentence opening with a
named subject that is "not the problem/issue/cause/culprit" now clears only a guess it shares a
topic word with; a pronoun ("That is not the problem.") still takes back the newest guess.
"""

from __future__ import annotations

import pytest

from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["The server is not the problem.", "Throughput is not the problem; acceptance is."])
def test_another_subject_clears_no_guess(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


@pytest.mark.parametrize("said", ["The d2t map is not the problem.", "The d2t map isn't the issue.", "That is not the problem."])
def test_the_guess_or_a_pronoun_rules_it_out(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", said)]
