"""analyze: "One possibility is that ...", "Another possibility: ...", "My hunch is ..." are guesses.

Agents list candidate causes this way; none was a hypothesis, so the confirmation after
"Another possibility: the d2t map holds absolute ids" settled nothing the postmortem showed. A
possibility offered as a plan ("A possibility is to restart the server") or talked about ("The
possibility of an OOM is low") stays none. The cue scans once for "possib(ly|le that|ility)"
where it scanned for "possibly" and "possible that".
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

ANOTHER = "Another possibility: the d2t map holds absolute ids."


@pytest.mark.parametrize("said", [
    "One possibility is that the draft uses the wrong hidden-state layers.",
    ANOTHER,
    "My hunch is the CUDA graph capture.",
    "Possibly the d2t map is stale.",
    "It is possible that the layers differ.",
])
def test_a_possibility_is_a_hypothesis(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", [
    "A possibility is to restart the server.",
    "The possibility of an OOM is low.",
    "One possibility is that we need to restart.",
])
def test_a_plan_or_a_mention_is_none(said):
    assert hypotheses(said) == []


def test_the_confirmation_settles_it(tmp_path):
    confirmed = "Confirmed: d2t[1000:1006] holds absolute ids, not offsets."
    a = _session(tmp_path, ANOTHER, confirmed)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(ANOTHER, "confirmed", confirmed)]
